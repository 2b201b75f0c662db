/**
 * Issue 28 item 1: `/login` loads the login form and nothing of the console until the
 * visitor signs in, or starts using the form on a connection that is not slow
 * (runtime/app/console-loading.ts). "Console chunk" is any script or style sheet outside
 * the login page's own files, which are read from the build's manifest (the entry, its
 * static imports and their CSS: tools/bundle-budget.ts, loginFiles).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loginFiles } from '../../tools/bundle-budget.ts';
import { launchBrowser, logIn, newPage } from './browser.ts';
import { readsOnly } from './file-server.ts';

// Reads only: the project's shared server.
readsOnly();

// The build the server serves: the project's (global-setup.ts), or, against a server
// already running (BROWSER_BASE_URL), the folder BROWSER_DIST_DIR names; without one the
// file is skipped.
const distDir = inject('distDir') || process.env.BROWSER_DIST_DIR || '';
let browser: Browser;
let allowed: Set<string>;

beforeAll(async () => {
  browser = await launchBrowser();
  allowed = distDir ? new Set(loginFiles(distDir).map((f) => `/${f}`)) : new Set();
});
afterAll(async () => {
  await browser?.close();
});

/** A page that notes every script and style sheet it requests, in order. */
async function watchedPage(opts: { saveData?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; assets: string[] }> {
  const { context, page } = await newPage(browser);
  if (opts.saveData) {
    // What Chromium reports on a connection with Save-Data on (the Network Information API).
    await context.addInitScript({
      content: `Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => ({ saveData: true, effectiveType: '4g', addEventListener() {}, removeEventListener() {} }) });`,
    });
  }
  const assets: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (/\.(js|css)$/.test(path)) assets.push(path);
  });
  return { context, page, assets };
}

const consoleChunks = (assets: string[]) => assets.filter((a) => !allowed.has(a));

describe.skipIf(!distDir)('the login page loads only the login form', () => {
  it('by network idle, /login has fetched its own files only: ≤ 150 kB gzip JavaScript and ≤ 30 kB CSS', async () => {
    const { context, page, assets } = await watchedPage();
    try {
      await page.goto('/login', { waitUntil: 'networkidle' });
      await page.locator('form#login button[type=submit]').waitFor();
      // Longer than the idle-time prefetch would wait (2 s at most), with nobody typing.
      await page.waitForTimeout(2_500);
      expect(consoleChunks(assets)).toEqual([]);
      let js = 0;
      let css = 0;
      for (const a of new Set(assets)) {
        const n = gzipSync(readFileSync(join(distDir, a)), { level: 9 }).length;
        if (a.endsWith('.css')) css += n;
        else js += n;
      }
      expect(js).toBeLessThanOrEqual(150_000);
      expect(css).toBeLessThanOrEqual(30_000);
    } finally {
      await context.close();
    }
  });

  it('with Save-Data on, typing fetches nothing ahead; signing in fetches the console and shows the table', async () => {
    const { context, page, assets } = await watchedPage({ saveData: true });
    try {
      await page.goto('/login?redirect=%2FbaseManager%2FuserManager', { waitUntil: 'networkidle' });
      await page.getByLabel('用户名').fill('admin');
      await page.getByLabel('密码').fill('demo_2026');
      await page.waitForTimeout(2_500);
      expect(consoleChunks(assets)).toEqual([]);
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.locator('[data-screen="userManager"] tbody tr[data-row-key]').first().waitFor();
      const fetched = consoleChunks(assets);
      expect(fetched.some((a) => /\/antd-frame-[^/]+\.js$/.test(a))).toBe(true);
      expect(fetched.some((a) => /\/bundled-screens-[^/]+\.js$/.test(a))).toBe(true);
      // The bundled documents are trusted (checked at build): a table renders without ajv.
      expect(fetched.filter((a) => /\/ajv-[^/]+\.js$/.test(a))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a fast connection, the first keys fetch the console ahead, before the sign-in', async () => {
    const { context, page, assets } = await watchedPage();
    try {
      await page.goto('/login', { waitUntil: 'networkidle' });
      expect(consoleChunks(assets)).toEqual([]);
      await page.getByLabel('用户名').pressSequentially('adm');
      await expect.poll(() => consoleChunks(assets).some((a) => /\/antd-frame-[^/]+\.js$/.test(a)), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => consoleChunks(assets).some((a) => /\/TableView-[^/]+\.js$/.test(a)), { timeout: 10_000 }).toBe(true);
      await logIn(page, 'admin');
      await page.waitForURL((url) => url.pathname !== '/login');
      await page.getByTestId('welcome').waitFor();
    } finally {
      await context.close();
    }
  });
});
