/**
 * Issue 14, the console's pickup of a publish (docs/studio.md, "Push"): two logged-in
 * consoles; a changed column title of cropsManager is published through the API; the
 * console that is elsewhere shows it on its next navigation, without a page load, and
 * the console that has the screen open says a newer version was published and shows it
 * on "reload". The published revision is rolled back to the bundled one afterwards, so
 * the other browser tests see the screen as bundled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cookieMap, launchBrowser, navigateInConsole as navigate, logIn, newPage } from './browser.ts';

const FILE = 'schemas/screens/knowledge/cropsManager.json';
const ROUTE = '/agricultureKnowledge/cropsManager';
const RUN = Date.now().toString(36).slice(-5);

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

async function console_(username: string): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser);
  contexts.push(opened.context);
  const events = opened.page.waitForRequest((r) => r.url().endsWith('/api/schemas/events'));
  await opened.page.goto('/login');
  await logIn(opened.page, username);
  await opened.page.waitForURL('**/dashboard');
  await events;
  return opened;
}

async function api<T>(context: BrowserContext, method: 'GET' | 'POST', url: string, data?: unknown): Promise<T> {
  const { token } = await cookieMap(context);
  // A publish's first render check starts the server's render worker (seconds on a busy machine).
  const res = await context.request.fetch(url, { method, headers: { Authorization: token, 'Accept-Language': 'en' }, data, timeout: 60_000 });
  const body = (await res.json()) as { status: number; message: string; data: T };
  if (body.status !== 200) throw new Error(`${method} ${url}: ${body.status} ${body.message}`);
  return body.data;
}


describe('a publish reaches open consoles', () => {
  it('shows on the next navigation, and an open screen offers the newer version', async () => {
    const open = await console_('admin');
    const elsewhere = await console_('farm');
    await open.page.goto(ROUTE);
    await expect.poll(() => open.page.locator('th:visible').filter({ hasText: '作物名称' }).count()).toBeGreaterThan(0);
    await elsewhere.page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    const doc = await api<{ revision: number; bundled: { columns: { title?: unknown }[] } }>(open.context, 'GET', `/api/studio/document?file=${FILE}`);
    const changed = structuredClone(doc.bundled);
    const title = `名称${RUN}`;
    changed.columns[0].title = { zh: title, en: `Name ${RUN}`, es: `Nombre ${RUN}` };
    const published = await api<{ revision: number }>(open.context, 'POST', '/api/studio/publish', {
      file: FILE,
      content: JSON.stringify(changed, null, 2),
      baseRevision: doc.revision,
      comment: 'studio-push browser test',
    });
    try {
      // The open screen: a notice, and the new title only once asked for.
      const notice = open.page.getByTestId('schema-update-notice');
      await expect.poll(() => notice.isVisible(), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => notice.textContent()).toContain('此页面已发布新版本');
      expect(await open.page.locator('th:visible').filter({ hasText: title }).count()).toBe(0);
      await notice.getByRole('button').click();
      await expect.poll(() => open.page.locator('th:visible').filter({ hasText: title }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await expect.poll(() => notice.count()).toBe(0);

      // The other console: the next navigation shows it, without a page load.
      // (The open console was told already: the same event reached this one.)
      await navigate(elsewhere.page, ROUTE);
      await expect.poll(() => elsewhere.page.locator('th:visible').filter({ hasText: title }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await elsewhere.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    } finally {
      await api(open.context, 'POST', '/api/studio/rollback', { file: FILE, revision: 0, baseRevision: published.revision, comment: 'studio-push browser test: back to bundled' });
    }
  }, 90_000);
});
