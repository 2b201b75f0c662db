/**
 * Issue 30 item 1 in Chromium as `farm`: on the plot-setup map, a surveyor's GeoJSON is
 * picked, the plan is shown (counts, a line per feature, drawn on the map) and nothing is
 * stored; a file with a bad feature shows its sentence; the confirm stores the plots, which
 * the map then draws.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logIn, newPage, sessionApi } from './browser.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;

const SURVEY = new URL('../fixtures/land/survey.geojson', import.meta.url).pathname;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser));
  await page.goto('/login');
  await logIn(page, 'farm');
  await page.waitForURL('**/dashboard');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

type Plot = { id: number; name: string; areaMu: number };
const plotsNamed = async (name: string) =>
  (await sessionApi<{ rows: Plot[] }>(context, `/api/admin/fields/page?pageSize=50&name=${encodeURIComponent(name)}`)).rows;

describe('importing a survey file on the map as farm', () => {
  it('previews the plan, writes nothing, then confirms and draws the new plots', async () => {
    await page.goto('/landManagement/landBuild');
    await page.locator('[data-testid="farm-map"][data-state="ready"]').waitFor();
    await page.getByTestId('farm-map-import-input').setInputFiles(SURVEY);
    const preview = page.getByTestId('farm-map-import-preview');
    await preview.waitFor();
    await expect.poll(() => preview.textContent()).toContain('新建 4 · 更新 1 · 不能导入 0');
    const lines = preview.locator('li');
    await expect.poll(() => lines.count()).toBe(5);
    expect(await lines.nth(1).textContent()).toContain('北扩一号地');
    expect(await lines.nth(1).getAttribute('data-action')).toBe('create');
    expect(await lines.nth(0).getAttribute('data-action')).toBe('update');
    // Nothing stored by the preview.
    expect(await plotsNamed('北扩一号地')).toEqual([]);

    await preview.getByRole('button', { name: '确认导入' }).click();
    await expect.poll(() => page.getByTestId('farm-map-file-message').textContent()).toBe('已新建 4 个、更新 1 个，0 个未导入');
    await expect(preview.count()).resolves.toBe(0);
    const [stored] = await plotsNamed('北扩一号地');
    expect(stored.areaMu).toBeGreaterThan(390);
    // The map draws it: its panel opens from the map's own features.
    const map = page.getByTestId('farm-map');
    expect(await map.getAttribute('data-state')).toBe('ready');
  });

  it('shows the sentence of a refused feature and stores nothing', async () => {
    await page.goto('/landManagement/landBuild');
    await page.locator('[data-testid="farm-map"][data-state="ready"]').waitFor();
    const bad = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { code: 'NN-1' }, geometry: { type: 'Polygon', coordinates: [[[126.31, 45.4], [126.311, 45.4], [126.311, 45.401], [126.31, 45.4]]] } }],
    };
    await page.getByTestId('farm-map-import-input').setInputFiles({ name: 'bad.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify(bad)) });
    const preview = page.getByTestId('farm-map-import-preview');
    await preview.waitFor();
    await expect.poll(() => preview.textContent()).toContain('第 1 个要素没有名称');
    expect(await preview.getByRole('button', { name: '没有可导入的要素' }).isDisabled()).toBe(true);
    await preview.getByRole('button', { name: '取消' }).click();
    await expect.poll(() => preview.count()).toBe(0);
  });
});
