import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { baseUrl, smsMailbox } from './browser.ts';

export type Lang = 'zh' | 'en';
export const WIDTHS = [1280, 800] as const;

/** Logs in through the API (the login page has its own tests) and opens `path` in a fresh context. */
export async function openShell(
  browser: Browser,
  opts: { user?: string; lang?: Lang; width?: number; path?: string; password?: string; beforeGoto?: (page: Page) => Promise<unknown> } = {},
): Promise<{ context: BrowserContext; page: Page; token: string }> {
  const { user = 'admin', lang = 'zh', width = 1280, path = '/dashboard', password = 'demo_2026' } = opts;
  const token = await apiToken(user, password);
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width, height: 800 } });
  context.setDefaultTimeout(15_000);
  await context.addCookies([
    { name: 'token', value: token, url: baseUrl() },
    { name: 'language', value: lang, url: baseUrl() },
  ]);
  const page = await context.newPage();
  await opts.beforeGoto?.(page);
  await page.goto(path);
  await page.getByTestId('tab-strip').waitFor();
  return { context, page, token };
}

export async function apiToken(user: string, password = 'demo_2026'): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/auth/jwt/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: user, password }) });
  const body = (await res.json()) as { status: number; data: string };
  if (body.status !== 200) throw new Error(`login ${user} failed`);
  return body.data;
}

export async function api<T = unknown>(token: string, path: string, init: RequestInit = {}): Promise<{ status: number; message: string; data: T }> {
  const res = await fetch(`${baseUrl()}${path}`, { ...init, headers: { Authorization: token, ...(init.headers ?? {}) } });
  return (await res.json()) as { status: number; message: string; data: T };
}

/** The newest code the development SMS mailbox holds for `phone` (lines: time, phone, purpose, code, …). */
export function latestSmsCode(phone: string, purpose = 'password'): string | null {
  const file = smsMailbox();
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').trim().split('\n').reverse();
  for (const line of lines) {
    const [, p, kind, code] = line.split('\t');
    if (p === phone && kind === purpose) return code;
  }
  return null;
}

export const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/**
 * Puts axe-core into the page once. Evaluated through the DevTools protocol: the console's
 * Content-Security-Policy (no inline script) refuses a script tag, as it should.
 */
export async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => 'axe' in window)) return;
  axeSource ??= readFileSync(resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');
  await page.evaluate(`${axeSource};window.axe = axe;`);
}
let axeSource: string | undefined;

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function axeSeriousViolations(page: Page): Promise<{ id: string; impact: string; help: string; targets: string[] }[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}

/** GET calls as `user` (logged in once, on first use): the reply's data, or an error naming the status. */
export function apiAs(user: string) {
  let token: string | undefined;
  return async <T>(url: string): Promise<T> => {
    token ??= await apiToken(user);
    const res = await fetch(`${baseUrl()}${url}`, { headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'zh' } });
    const body = (await res.json()) as { status: number; message: string; data: T };
    if (body.status !== 200) throw new Error(`${url}: ${body.status} ${body.message}`);
    return body.data;
  };
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A button by its words, after its icon's name if it has one; antd spaces two-character labels («保 存»). */
export const button = (scope: Locator | Page, name: string) =>
  scope.getByRole('button', { name: new RegExp(`(^|\\s)(${escapeRegExp(name)}|${escapeRegExp(name.split('').join(' '))})$`) }).first();
