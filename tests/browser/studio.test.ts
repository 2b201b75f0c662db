/**
 * The schema studio as the demo configurer `config` (issue 14): in the editor, a column
 * of cropsManager gets a new title and moves first; the live preview (the real runtime,
 * real data) shows it; the publish reaches another logged-in console (admin) without a
 * reload; a broken document is refused with line and column; the revision is rolled back;
 * the preview is viewed as the farm operator (never more rights than the configurer) and
 * as a role that cannot reach the screen. One flow on one server.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, navigateInConsole as navigate } from './browser.ts';
import { api, openShell } from './shell-support.ts';

const FILE = 'schemas/screens/knowledge/cropsManager.json';
const bundled = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../', FILE), 'utf8')) as { title: Record<string, string>; columns: { field: string; title?: Record<string, string> }[] };
const NEW_TITLE = { zh: '英文名（工作室）', en: 'English name (studio)', es: 'Nombre inglés (estudio)' };

/**
 * cropsManager with its englishName column titled NEW_TITLE and its status column moved
 * from 9th to 2nd, right after the name (which is fixed on the left).
 */
function changed(): string {
  const doc = structuredClone(bundled);
  const e = doc.columns.find((c) => c.field === 'englishName')!;
  e.title = NEW_TITLE;
  const i = doc.columns.findIndex((c) => c.field === 'status');
  const [status] = doc.columns.splice(i, 1);
  doc.columns.splice(1, 0, status);
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Column headings of a table, without the selection column. */
const EXPECTED_START = ['Crop name', 'Status', NEW_TITLE.en];

let browser: Browser;
let studio: { context: BrowserContext; page: Page; token: string };
let other: { context: BrowserContext; page: Page; token: string };
/** The document's revision before the flow (0 on a fresh server: bundled, never published). */
let start = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  studio = await openShell(browser, { user: 'config', lang: 'en', path: '/studio/edit/screen/cropsManager' });
  other = await openShell(browser, { user: 'admin', lang: 'en', path: '/dashboard' });
  start = (await api<{ revision: number }>(studio.token, `/api/studio/document?file=${encodeURIComponent(FILE)}`)).data.revision;
  // The server's render check runs in a worker started on the first check (docs/studio.md):
  // started here, so that the flow's publish meets a warm worker on a loaded machine too.
  for (let i = 0; i < 3; i++) {
    const checked = await api<{ problems: { message: string }[] }>(studio.token, '/api/studio/check', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ file: FILE, content: readFileSync(resolve(import.meta.dirname, '../../', FILE), 'utf8') }),
    });
    if (checked.status === 200 && checked.data.problems.length === 0) break;
  }
}, 120_000);
afterAll(async () => {
  await studio?.context.close();
  await other?.context.close();
  await browser?.close();
});

/** Waits for a value as the console settles (a preview remounts, a publish reaches another console). */
const poll = <T,>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 200 });
const editor = () => studio.page.getByTestId('studio-editor');
const headings = async (page: Page, scope: string) => (await page.locator(`${scope} thead th`).allInnerTexts()).map((h) => h.trim()).filter(Boolean);
const previewHeaders = () => headings(studio.page, '[data-testid="studio-preview"]');

/** Replaces the editor's text as typing would (CodeMirror's input handling, then its checks). */
async function typeDocument(text: string) {
  await editor().click();
  await studio.page.keyboard.press('ControlOrMeta+a');
  await studio.page.keyboard.insertText(text);
}


describe('schema studio as config', () => {
  it('shows the bundled document, checked, and its preview with real data', async () => {
    await poll(() => studio.page.getByTestId('studio-problem-count').innerText()).toMatch(/No problems/);
    await poll(previewHeaders).toContain('Updated');
    await poll(() => studio.page.getByTestId('studio-preview').locator('tbody tr').count()).toBeGreaterThan(0);
  });

  it('changes a column title and order, and the preview follows', async () => {
    await typeDocument(changed());
    await poll(async () => (await previewHeaders()).slice(0, 3)).toEqual(EXPECTED_START);
    await poll(() => studio.page.getByTestId('studio-problem-count').innerText()).toMatch(/No problems/);
  });

  it('publishes, and another console shows it without a reload', async () => {
    const marker = await other.page.evaluate(() => ((window as unknown as { __marker: number }).__marker = Math.random()));
    await studio.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await studio.page.getByRole('dialog').getByLabel('Comment').fill('English name first, titled for the studio test');
    await studio.page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    // Published, or refused (then the refusal's sentences are the failure's message).
    const published = studio.page.getByText(`Published as revision ${start + 1}`);
    // The first publish of a server may wait for its render worker to start: in a clean clone on
    // the loaded 2-core machine, loading React, antd and jsdom through tsx takes tens of seconds.
    await published.or(studio.page.getByTestId('studio-refusal')).first().waitFor({ timeout: 150_000 });
    expect(await studio.page.getByTestId('studio-refusal').count(), await studio.page.getByTestId('studio-refusal').allInnerTexts().then((t) => t.join(' '))).toBe(0);

    await navigate(other.page, '/agricultureKnowledge/cropsManager');
    await poll(async () => (await headings(other.page, '[data-screen="cropsManager"]')).slice(0, 3)).toEqual(EXPECTED_START);
    // The same page: never reloaded.
    expect(await other.page.evaluate(() => (window as unknown as { __marker: number }).__marker)).toBe(marker);
  }, 200_000);

  it('refuses a broken document with line and column', async () => {
    const broken = changed().replace(`    "es": "${bundled.title.es}"\n`, '').replace(`"en": "${bundled.title.en}",`, `"en": "${bundled.title.en}"`);
    await typeDocument(broken);
    await poll(() => studio.page.getByTestId('studio-problem-count').innerText()).toMatch(/1 problems|problems/);
    // The preview keeps the last valid render and says why.
    await studio.page.getByTestId('studio-preview-stale').waitFor();
    expect((await previewHeaders()).slice(0, 3)).toEqual(EXPECTED_START);

    await studio.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await studio.page.getByRole('dialog').getByLabel('Comment').fill('missing a translation');
    await studio.page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    const refusal = studio.page.getByTestId('studio-refusal');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/line 7, column 3/);
    expect(await refusal.innerText()).toMatch(/\/title/);
    const revisions = await api<{ revision: number }[]>(studio.token, `/api/studio/revisions?file=${encodeURIComponent(FILE)}`);
    expect(revisions.data[0].revision).toBe(start + 1);
  });

  it('rolls back to the bundled revision', async () => {
    await studio.page.getByRole('tab', { name: 'Revisions' }).click();
    const panel = studio.page.getByTestId('studio-revisions');
    await panel.getByText('Bundled (revision 0)').first().waitFor();
    // The diff of the draft against the bundled revision reads as sentences.
    await poll(() => studio.page.getByTestId('studio-diff').innerText()).toMatch(/English name \(studio\)|moved/);
    // One change taken back alone: the title's missing Spanish returns to the editor, the other changes stay.
    const titleChange = studio.page.getByTestId('studio-diff').locator('.ant-list-item').filter({ has: studio.page.locator('code', { hasText: /^\/title/ }) });
    await titleChange.first().getByRole('button', { name: 'Restore this change' }).click();
    await poll(() => studio.page.getByTestId('studio-problem-count').innerText()).toMatch(/No problems/);
    await studio.page.getByRole('tab', { name: 'Preview' }).click();
    await poll(() => studio.page.getByTestId('studio-preview-stale').count()).toBe(0);
    expect((await previewHeaders()).slice(0, 3)).toEqual(EXPECTED_START);
    await studio.page.getByRole('tab', { name: 'Revisions' }).click();
    const bundledRow = panel.locator('.ant-list-item').filter({ hasText: 'Bundled (revision 0)' });
    await bundledRow.getByRole('button', { name: 'Restore this revision' }).click();
    await studio.page.getByRole('dialog').getByLabel('Comment').fill('back to the bundled screen');
    await studio.page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await studio.page.getByText(`Restored as revision ${start + 2}`).waitFor();
    const doc = await api<{ revision: number; published: { content: unknown } }>(studio.token, `/api/studio/document?file=${encodeURIComponent(FILE)}`);
    expect(doc.data.revision).toBe(start + 2);
    expect(JSON.stringify(doc.data.published.content)).not.toContain(NEW_TITLE.en);
  });

  it('previews as farm, with no more rights than config', async () => {
    await studio.page.getByRole('tab', { name: 'Preview' }).click();
    const roles = await api<{ role: string; menus: string[]; elements: string[] }[]>(studio.token, '/api/studio/view-as');
    const farm = roles.data.find((r) => r.role === 'farmOperator');
    expect(farm?.menus).toContain('agricultureKnowledgeCropsManager');
    // config holds no element code outside the studio: nor does any role viewed through it.
    for (const r of roles.data) for (const e of r.elements) expect(e.startsWith('studioDocuments:')).toBe(true);

    await studio.page.getByRole('combobox', { name: 'View as' }).click();
    await studio.page.locator('.ant-select-item-option').filter({ hasText: 'farmOperator' }).click();
    await poll(() => studio.page.getByTestId('studio-preview').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await studio.page.getByTestId('studio-preview').getByRole('button', { name: /Add/ }).count()).toBe(0);

    await studio.page.getByRole('combobox', { name: 'View as' }).click();
    await studio.page.locator('.ant-select-item-option').filter({ hasText: '(manufacturer)' }).click();
    await studio.page.getByText(/The chosen role cannot reach this screen/).waitFor();
  });
});

describe('a new screen made in the studio', () => {
  // Unique per run: the browser suite's server is shared, and a published id stays taken.
  const id = `cropsList${Date.now().toString(36)}`;
  const route = `/agricultureKnowledge/${id}`;

  it('is created as a table of crops, previewed (also in the pseudo-locale), published, and opened at its route in another console', async () => {
    const page = studio.page;
    await navigate(page, '/studio/documents');
    await page.getByTestId('studio-new-screen').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('id', { exact: true }).fill(id);
    await dialog.getByRole('combobox', { name: 'Resource' }).fill('crops');
    await page.locator('.ant-select-item-option').filter({ hasText: '(crops)' }).click();
    await dialog.getByRole('combobox', { name: 'Menu code' }).fill('agricultureKnowledgeCropsManager');
    await page.locator('.ant-select-item-option').filter({ hasText: '(agricultureKnowledgeCropsManager)' }).click();
    // The route is proposed from the menu entry's section and the id.
    expect(await dialog.getByLabel('Routes').inputValue()).toBe(route);
    await dialog.getByLabel('Title zh').fill('作物清单');
    await dialog.getByLabel('Title en').fill('Crop list');
    await dialog.getByLabel('Title es').fill('Lista de cultivos');
    await dialog.getByRole('button', { name: 'Create' }).click();

    // The editor, with the draft checked and previewed with real data.
    await poll(() => page.getByTestId('studio-problem-count').innerText()).toMatch(/No problems/);
    await poll(previewHeaders).toContain('Crop name');
    await poll(() => page.getByTestId('studio-preview').locator('tbody tr').count()).toBeGreaterThan(0);
    await page.getByTestId('studio-pseudo').click();
    await poll(async () => (await previewHeaders()).every((h) => /^\[.+~\]$/.test(h))).toBe(true);
    await page.getByTestId('studio-pseudo').click();

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Comment').fill('a crop list made in the studio');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await page.getByText('Published as revision 1').or(page.getByTestId('studio-refusal')).first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('studio-refusal').count(), await page.getByTestId('studio-refusal').allInnerTexts().then((t) => t.join(' '))).toBe(0);

    // Another console (admin, holding the menu code) opens it at its route, without a reload.
    await poll(async () => {
      await navigate(other.page, route);
      return other.page.locator(`[data-screen="${id}"] tbody tr`).count();
    }).toBeGreaterThan(0);
    expect((await headings(other.page, `[data-screen="${id}"]`))[0]).toBe('Crop name');
  });
});
