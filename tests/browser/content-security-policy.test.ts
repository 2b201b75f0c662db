/**
 * Issue 11 item 5: the built console works under the server's Content-Security-Policy.
 * Chromium reports every blocked script, style, image or eval as a
 * `securitypolicyviolation` event; none may occur while logging in, showing the dashboard
 * and validating a form (ajv compiles its schema in the browser).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, logIn, newPage } from './browser.ts';

let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

it('logs in, shows the dashboard and validates a form without a single CSP violation', async () => {
  const opened = await newPage(browser);
  context = opened.context;
  const { page } = opened;
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  const consoleViolations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) consoleViolations.push(msg.text());
  });

  const login = await page.goto('/login');
  const policy = login!.headers()['content-security-policy'];
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  await logIn(page, 'admin');
  await page.waitForURL('**/dashboard');

  await page.goto('/bigData-kms/addPlantRules/add/0');
  await page.getByRole('button', { name: '保存' }).click();
  await page.locator('.ant-form-item-explain-error').first().waitFor();

  const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  expect(violations).toEqual([]);
  expect(consoleViolations).toEqual([]);
});
