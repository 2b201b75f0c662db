import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { fileServer } from './file-server.ts';

/** Origin of the console under test: this file's server, else the one BROWSER_BASE_URL names. */
export const baseUrl = (): string => fileServer()?.baseUrl ?? inject('baseUrl');
/** The development SMS mailbox of that server (codes sent are appended there). */
export const smsMailbox = (): string => fileServer()?.smsMailbox ?? inject('smsMailbox');

/** Debian's Chromium, headless, no sandbox (containers), no GPU, no background traffic. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A fresh context (its own cookies and storage) with one page at 1280 × 800. */
export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

/** Logs in from the login page with the zh labels. */
export async function logIn(page: Page, username: string, password = 'demo_2026'): Promise<void> {
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

export async function cookieMap(context: BrowserContext): Promise<Record<string, string>> {
  return Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
}

/** A GET of the API with the session the page signed in to (its token cookie), in zh: the reply's data, or a thrown status and message. */
export async function sessionApi<T = unknown>(context: BrowserContext, url: string): Promise<T> {
  const { token } = await cookieMap(context);
  const res = await context.request.fetch(url, { headers: { Authorization: token, 'Accept-Language': 'zh' } });
  const body = (await res.json()) as { status: number; message: string; data: T };
  if (body.status !== 200) throw new Error(`${url}: ${body.status} ${body.message}`);
  return body.data;
}

/**
 * Goes to `path` inside the console loaded in `page` as a menu link does (the router's
 * history: pushState and a popstate), without a page load: a load compiles the console's
 * scripts again, which takes seconds on the 2-core machine. Returns once the URL is
 * `path`; what the screen shows is for the caller to wait for.
 */
export async function navigateInConsole(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    window.history.pushState({ idx }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: { idx } }));
  }, path);
  await page.waitForURL((u) => u.pathname + u.search === path || u.href.endsWith(path));
}
