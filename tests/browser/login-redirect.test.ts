/**
 * Issue 10 item 5: after logging in from /login?redirect=…, the console stays on the
 * requested screen. The bug showed the screen for a moment and then moved on to the
 * dashboard, so these tests look again three seconds after the login, not at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launchBrowser, logIn, newPage } from './browser.ts';
import { readsOnly } from './file-server.ts';

// Reads and navigates only: the project's shared server (file-server.ts).
readsOnly();

const TARGET = '/agricultureKnowledge/cropsManager';
const SETTLE_MS = 3_000;

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
});

const pathOf = (p: Page) => {
  const url = new URL(p.url());
  return url.pathname + url.search;
};

async function loginAndSettle(start: string): Promise<void> {
  ({ context, page } = await newPage(browser));
  await page.goto(start);
  await page.waitForURL('**/login**');
  await logIn(page, 'admin');
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.waitForTimeout(SETTLE_MS);
}

describe('the redirect after login', () => {
  it('opened directly: /login?redirect=<screen> stays on that screen', async () => {
    await loginAndSettle(`/login?redirect=${encodeURIComponent(TARGET)}`);
    expect(pathOf(page)).toBe(TARGET);
    await page.locator('[data-screen="cropsManager"]:visible').waitFor({ timeout: 1_000 });
    expect(await page.getByTestId('welcome').count()).toBe(0);
  });

  it('reached from a gated path: the path and its query survive the login', async () => {
    await loginAndSettle(`${TARGET}?page=1`);
    expect(pathOf(page)).toBe(`${TARGET}?page=1`);
    await page.locator('[data-screen="cropsManager"]:visible').waitFor({ timeout: 1_000 });
  });

  it.each(['//evil.example/x', 'https://evil.example/x', '/\\evil.example'])('another origin (%s) is ignored: the dashboard', async (redirect) => {
    await loginAndSettle(`/login?redirect=${encodeURIComponent(redirect)}`);
    expect(new URL(page.url()).origin).toBe(baseUrl());
    expect(pathOf(page)).toBe('/dashboard');
    await page.getByTestId('welcome').waitFor({ timeout: 1_000 });
  });
});
