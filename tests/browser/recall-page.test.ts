/**
 * The public page of a recalled batch, logged out on a phone (390 × 844), in zh, en and es
 * (issue 25 item 4; docs/harvest-sales-trace.md, "Recall"): the recall is the first thing the
 * page says, as an alert. A batch held by a safety interval has no page: its code is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { baseUrl, launchBrowser } from './browser.ts';
import { api, apiAs, apiToken } from './shell-support.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Batch = { id: number; batchNo: string; traceCode: string | null; recalled: boolean; recallReason: string | null; release: string };

describe('a recalled batch’s public page, logged out on a phone', () => {
  it('says recalled first, in the visitor’s language; a held batch gets no page', async () => {
    const batches = (await apiAs('farm')<{ rows: Batch[] }>('/api/farmHarvest/harvests/page?pageSize=500')).rows;
    const recalled = batches.find((b) => b.recalled && b.traceCode);
    expect(recalled, 'the seed recalls a batch with a trace code').toBeDefined();
    const expected = { 'zh-CN': '本批次已召回', en: 'This batch was recalled on', es: 'Este lote fue retirado el' };
    for (const [locale, words] of Object.entries(expected)) {
      const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 390, height: 844 }, locale });
      try {
        const page = await context.newPage();
        const reply = await page.goto(`/t/${recalled!.traceCode}`);
        expect(reply?.status()).toBe(200);
        const alert = page.getByRole('alert').first();
        await expect.poll(() => alert.textContent()).toContain(words);
        expect(await alert.textContent()).toContain(String(recalled!.recallReason).slice(0, 10));
        // First thing on the page, right under the heading, inside the phone's first screen and not wider than it.
        const box = await alert.boundingBox();
        expect(box!.y).toBeLessThan(300);
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      } finally {
        await context.close();
      }
    }
    // A batch held by its safety interval: no code, so no page; the refusal says why.
    const held = batches.find((b) => b.release === 'held' && !b.recalled && !b.traceCode);
    expect(held, 'the seed has a batch waiting for its test').toBeDefined();
    const token = await apiToken('farm');
    const refused = await api<{ errors: { field: string; message: string }[] }>(`Bearer ${token}`, '/api/trackInfoManage/codes', { method: 'POST', body: JSON.stringify({ harvestId: held!.id }), headers: { 'content-type': 'application/json' } });
    expect(refused.status).toBe(40001);
    expect(refused.data.errors[0].message).toContain(`批次 ${held!.batchNo} 在农药安全间隔期内采收`);
  });
});
