/**
 * Issue 27 item 5 in Chromium: the pest reports list shows the demo farm's seeded photos as
 * thumbnails (read with the session's token), and the report form's photo field uploads a
 * picture, shows its thumbnail, and shows the server's refusal of a script named image.png
 * on the field.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { button, openShell } from './shell-support.ts';

let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('file field', () => {
  it('shows seeded thumbnails, attaches a photo in the form and sees its thumbnail, and shows a refusal on the field', async () => {
    const opened = await openShell(browser, { user: 'farm', path: '/weatherAndSituation/insectSituation' });
    context = opened.context;
    const { page } = opened;

    // The seeded photos of the demo farm's pest reports, as thumbnails read with the token.
    const seeded = page.locator('[data-files] img').first();
    await seeded.waitFor();
    await expect.poll(() => seeded.getAttribute('src')).toMatch(/^blob:/);

    await button(page, '新增').click();
    const field = page.locator('[data-file-field="photos"]');
    await field.waitFor();
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#5a8f3a' } }).jpeg().toBuffer();
    await field.locator('input[type=file]').setInputFiles({ name: '玉米螟.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    const thumb = field.locator('.ant-upload-list-item img').first();
    await thumb.waitFor();
    // The picture itself (antd may first draw a data: preview, then the stored thumbnail's blob:).
    await expect.poll(() => thumb.getAttribute('src')).toMatch(/^(blob|data):/);
    await expect.poll(() => field.locator('.ant-upload-list-item-error').count()).toBe(0);

    // A script named image.png: the browser's guess says PNG, the server reads the content.
    await field.locator('input[type=file]').setInputFiles({ name: 'image.png', mimeType: 'image/png', buffer: Buffer.from('<script>alert(1)</script>') });
    await expect.poll(() => field.locator('[data-file-refusal]').textContent()).toMatch(/只接受 JPEG \/ PNG \/ WebP 文件/);
  });
});
