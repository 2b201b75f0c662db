/**
 * Issue 17 in Chromium, as `farm`, with the built-in device simulator: the demo devices
 * labelled simulated (issue 26); switch the field
 * pump from the control room and see the command pending, then acknowledged by the
 * (simulated) device; see a reading arrive live (pushed, no reload); create a scenario on
 * the scenarios screen and see it fire on the simulator's next reading.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logIn, newPage, sessionApi } from './browser.ts';

let browser: Browser;
let context: BrowserContext;
let page: Page;

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

const api = <T = unknown>(url: string): Promise<T> => sessionApi<T>(context, url);

interface Units {
  units: { unit: string; devices: { id: number; code: string; name: string; kind: string }[] }[];
}

async function deviceCode(suffix: string): Promise<{ id: number; code: string }> {
  const units = await api<Units>('/api/devices/units');
  const d = units.units.flatMap((u) => u.devices).find((x) => x.code.endsWith(suffix));
  if (!d) throw new Error(`no device ${suffix}`);
  return d;
}

describe('devices as farm', () => {
  it('labels the demo devices as simulated: a banner and a tag on the control room and on the system build', async () => {
    const pump = await deviceCode('-FLD-PUMP');
    await page.goto('/farmControllRoom/index');
    const banner = page.getByTestId('simulated-banner').first();
    await banner.waitFor();
    expect(await banner.textContent()).toContain('内置模拟器');
    await page.locator(`[data-device="${pump.code}"] [data-testid="simulated"]`).waitFor();
    expect(await page.locator(`[data-device="${pump.code}"] [data-testid="simulated"]`).textContent()).toBe('模拟');
    await page.goto('/farmControllRoom/equipmentManagement');
    await page.locator(`[data-build-device="${pump.code}"] [data-testid="simulated"]`).waitFor();
  });

  it('switches the pump from the control room: pending, then acknowledged by the device', async () => {
    const pump = await deviceCode('-FLD-PUMP');
    await page.goto('/farmControllRoom/index');
    const row = page.locator(`[data-device="${pump.code}"][data-online="yes"]`);
    await row.waitFor({ timeout: 20_000 });
    const toggle = row.getByRole('switch');
    const wasOn = (await toggle.getAttribute('aria-checked')) === 'true';
    await toggle.click();
    await row.locator('[data-testid="outcome"][data-status="acknowledged"]').waitFor({ timeout: 10_000 });
    expect(await toggle.getAttribute('aria-checked')).toBe(String(!wasOn));
    const page1 = await api<{ rows: { status: string; params: { on: boolean } }[] }>(`/api/devices/commands/page?deviceId=${pump.id}&pageSize=1`);
    expect(page1.rows[0]).toMatchObject({ status: 'acknowledged', params: { on: !wasOn } });
  });

  it('shows a reading arriving live', async () => {
    const sensor = await deviceCode('-GH1-TH');
    await page.goto('/farmControllRoom/index');
    const value = page.locator(`[data-reading="${sensor.code}:airTemperature"] .eqc-reading-value`);
    await value.waitFor();
    const first = await value.textContent();
    // The simulator reports every few seconds with noise: the pushed value replaces the shown one.
    await page.waitForFunction(
      ([selector, before]) => {
        const el = document.querySelector(selector as string);
        return !!el && el.textContent !== before && /\d/.test(el.textContent ?? '');
      },
      [`[data-reading="${sensor.code}:airTemperature"] .eqc-reading-value`, first],
      { timeout: 20_000 },
    );
  });

  it('grows an open environment chart as readings arrive, without a reload', async () => {
    await page.goto('/environment/index');
    const chart = page.locator('.eqc-chart[data-readings]');
    await chart.waitFor();
    const before = Number(await chart.getAttribute('data-readings'));
    const loads: string[] = [];
    page.on('request', (r) => r.url().includes('/api/devices/readings/series') && loads.push(r.url()));
    // The simulator reports every few seconds: the chart counts more readings, read from the stream, not again from the server.
    await page.waitForFunction((n) => Number(document.querySelector('.eqc-chart')?.getAttribute('data-readings')) > n, before, { timeout: 30_000 });
    expect(loads).toEqual([]);
  });

  it('creates a scenario and sees it fire on the simulator', async () => {
    const lamp = await deviceCode('-GH1-LAMP');
    await page.goto('/equipmentControll/scenarioAdd');
    await page.getByRole('button', { name: '新建方案' }).click();
    const dialog = page.getByRole('dialog');
    const name = `补光测试 ${Date.now() % 100000}`;
    await dialog.getByLabel('名称', { exact: true }).fill(name);
    // A click on an option of a list still opening can be lost on a loaded machine: check that the pick took, and pick again if not.
    const choose = async (label: string, option: string) => {
      const select = dialog.locator('.ant-select', { has: page.getByLabel(label, { exact: true }) });
      await expect
        .poll(
          async () => {
            if ((await select.innerText()).includes(option)) return true;
            await dialog.getByLabel(label, { exact: true }).click();
            await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click({ timeout: 5_000 }).catch(() => undefined);
            return (await select.innerText()).includes(option);
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBe(true);
    };
    await choose('位置', '一号日光温室');
    await choose('指标', '空气温度');
    // Always above -50 °C: the next reading crosses it.
    await dialog.getByLabel('阈值', { exact: true }).fill('-50');
    await choose('动作 · 设备', '一号温室补光灯');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    // Not closed: the form says why (a field's sentence), rather than a bare time-out.
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 }).catch(async (e: unknown) => {
      throw new Error(`the scenario form stayed open: ${(await dialog.locator('.ant-form-item-explain-error, .ant-alert').allInnerTexts()).join(' | ') || String(e)}`);
    });
    await page.getByTestId(`runs-${name}`).filter({ hasText: '1' }).waitFor({ timeout: 25_000 });
    const scenarios = await api<{ rows: { id: number; name: string; runs: number }[] }>('/api/devices/scenarios/page');
    const s = scenarios.rows.find((r) => r.name === name)!;
    expect(s.runs).toBe(1);
    // Its command reached the lamp, which acknowledged it.
    const until = Date.now() + 10_000;
    let status = '';
    while (Date.now() < until && status !== 'acknowledged') {
      const c = await api<{ rows: { status: string }[] }>(`/api/devices/commands/page?scenarioId=${s.id}`);
      status = c.rows[0]?.status ?? '';
      if (status !== 'acknowledged') await new Promise((r) => setTimeout(r, 300));
    }
    expect(status).toBe('acknowledged');
    expect(lamp.id).toBeGreaterThan(0);
  });
});

describe('system build and the farm home as farm', () => {
  it('adds a sensor on the system-build screen: its MQTT identity shown once, then played by the simulator and online', async () => {
    const pump = await deviceCode('-FLD-PUMP');
    const prefix = pump.code.split('-')[0];
    const code = `${prefix}-BT-${Date.now() % 100000}`;
    await page.goto('/farmControllRoom/equipmentManagement');
    await page.getByRole('button', { name: '新增设备' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('编号', { exact: true }).fill(code);
    await dialog.getByLabel('名称', { exact: true }).fill('浏览器测试墒情站');
    const choose = async (label: string, option: string) => {
      await dialog.getByLabel(label, { exact: true }).click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
    };
    await choose('设备类型', '传感器');
    await choose('网关', '大田与泵房网关');
    await dialog.getByLabel('位置', { exact: true }).fill('东区大田灌溉');
    await choose('通道', '土壤湿度');
    // Close the multiple select's list (Escape would close the dialog).
    await dialog.locator('.ant-modal-title').click();
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    const identity = page.getByRole('dialog').filter({ hasText: 'MQTT' });
    await identity.waitFor();
    expect(await identity.textContent()).toContain(`/device/${code}/reading`);
    await identity.getByRole('button', { name: /OK|确\s*定/ }).click();
    const row = page.locator(`[data-build-device="${code}"]`);
    await row.waitFor();
    // The simulator plays the new sensor on its gateway: it reports and is online.
    const until = Date.now() + 25_000;
    while (!(await row.textContent())?.includes('在线') && Date.now() < until) {
      await page.waitForTimeout(2000);
      await page.reload();
      await row.waitFor();
    }
    expect(await row.textContent()).toContain('在线');
  });

  it('the farm home shows the device parts: open alarms and readings now', async () => {
    await page.goto('/farmMain/index');
    await page.getByText('未处理设备告警').first().waitFor();
    await page.getByText('实时读数').first().waitFor();
    await page.getByRole('cell', { name: '东区大田灌溉' }).first().waitFor({ timeout: 15_000 });
  });
});
