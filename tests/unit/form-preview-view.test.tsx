// @vitest-environment jsdom
/**
 * A form's live preview in the real form renderer (FormView, rjsf + antd) with the real
 * HTTP client and data provider: makePlantPlan waits for its template and start date, then
 * posts the form's values with `preview: true` once typing pauses, draws the reply's items on
 * the planting timeline (the widget loaded through the manifest), shows a refusal as the
 * server's sentence in place, and never stores anything (no call without `preview`) until
 * saved. A work item moved on the preview is an adjustment sent with the next preview call
 * and the save; a refused one comes back beside its bar and is taken back. The
 * test's document differs from the repository's in one place: `initial` also reads the
 * template and date from the query, so no date picker has to be driven in jsdom.
 */
import { resolve } from 'node:path';
import { act, cleanup, fireEvent, render, screen as dom, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDataProvider } from '../../runtime/app/data-provider.ts';
import { createHttpClient } from '../../runtime/http/client.ts';
import type { Language } from '../../runtime/i18n/languages.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { buildRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';
import { ScreenFrame } from '../../runtime/screens/ScreenView.tsx';
import type { ScreenHost } from '../../runtime/screens/host.ts';
import { createHarness, Providers, stubBrowserApis } from './screens-harness.tsx';

const ROOT = resolve(import.meta.dirname, '../..');
const GENERATE = '/api/farmPlantGroup/plans/generate';
const REFUSAL = 'The plan date 2026-09-03 is after the season ends (2026-08-31); start earlier or use a shorter template';
let registry: SchemaRegistry;

beforeAll(async () => {
  stubBrowserApis();
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1200 });
  const docs = (await folderSource(ROOT).documents()).map((d) => {
    const value = JSON.parse(String(d.content));
    if (d.type === 'screen' && value.id === 'makePlantPlan') {
      (value as FormScreen).initial = { ...value.initial, templateId: 'query.templateId', startOn: 'query.startOn' };
      return { ...d, content: JSON.stringify(value), source: 'bundled' };
    }
    return { ...d, source: 'bundled' };
  });
  registry = buildRegistry(docs as Parameters<typeof buildRegistry>[0]);
});
afterEach(() => cleanup());

/** The generator's preview as the server answers it: items computed from the start date, adjustments applied. */
function generated(startOn: string, adjustments: { orderNumber: number; startOn: string; endOn: string }[] = []) {
  const plan = template(startOn);
  return { ...plan, items: plan.items.map((i) => ({ ...i, ...adjustments.find((a) => a.orderNumber === i.orderNumber) })) };
}

/** The server refuses moving Weeding (item 4), as it refuses a date outside the season. */
const WEEDING_REFUSAL = 'The plan date 2026-09-01 is after the season ends (2026-08-31)';

function template(startOn: string) {
  const add = (d: number) => new Date(Date.parse(`${startOn}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10);
  return {
    plan: { groupId: 4, templateId: 2, planType: 'seasonWork', name: `Season · ${startOn}`, startOn, reviewStatus: 'draft' },
    items: [
      { orderNumber: 1, itemType: 'stage', name: 'Seedling', startOn, endOn: add(29) },
      { orderNumber: 2, itemType: 'keyNode', name: 'Transplant', startOn: add(30), endOn: add(30) },
      { orderNumber: 3, itemType: 'work', name: 'Irrigation', workTypeId: 4, startOn: add(3), endOn: add(5) },
      { orderNumber: 4, itemType: 'work', name: 'Weeding', workTypeId: 5, startOn: add(10), endOn: add(10) },
    ],
    season: { start: '2026-03-01', end: '2026-08-31' },
    plantedOn: '2026-03-10',
  };
}

interface Call {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

/** makePlantPlan at /farmPlantGroup/makePlantPlan/4/3 with a server answering generate (refusing while `refuse` says so). */
function mount(query: Record<string, string>, opts: { language?: Language; refuse?: () => boolean } = {}) {
  const h = createHarness(registry, { language: opts.language ?? 'en' });
  const calls: Call[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://fixture.local');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    if (url.pathname === GENERATE) {
      calls.push({ method, path: url.pathname, body });
      await new Promise((r) => setTimeout(r, 0));
      if (opts.refuse?.()) return Response.json({ status: 40001, message: REFUSAL, data: { errors: [{ field: 'startOn', message: REFUSAL }] } }, { status: 400 });
      const adjustments = (body?.adjustments ?? []) as { orderNumber: number; startOn: string; endOn: string }[];
      const weeding = adjustments.findIndex((a) => a.orderNumber === 4);
      if (weeding >= 0) return Response.json({ status: 40001, message: WEEDING_REFUSAL, data: { errors: [{ field: `adjustments/${weeding}/endOn`, message: WEEDING_REFUSAL }] } }, { status: 400 });
      const reply = generated(String(body?.startOn), adjustments);
      return Response.json({ status: 200, message: 'ok', data: body?.preview ? reply : { id: 77, groupId: 4, ...reply } });
    }
    if (url.pathname === '/api/farmPlantGroup/plans/templateOptions') return Response.json({ status: 200, message: 'ok', data: [{ value: 2, label: 'Season' }] });
    return h.transport.fetch(input, init);
  }) as typeof globalThis.fetch;
  const http = createHttpClient({
    baseUrl: '',
    getToken: () => 'fixture',
    getLanguage: () => opts.language ?? 'en',
    notifier: h.services.notifier,
    translate: (k) => h.services.i18n.t(k),
    endSession: () => {},
    fetch,
    log: () => {},
  });
  const services = { ...h.services, http, data: createDataProvider(http) };
  const screen = registry.screen('makePlantPlan')!;
  const host: ScreenHost = { registry, authority: screen.authority, routePattern: screen.route, params: { id: '4', planTypeId: '3' }, query };
  render(
    <Providers services={services}>
      <ScreenFrame screen={screen} host={host} />
    </Providers>,
  );
  return calls;
}

const previewRegion = () => dom.findByRole('region', { name: 'Plan preview' });

describe('form preview (makePlantPlan)', { timeout: 120_000 }, () => {
  it('waits for the template and the start date, saying which are missing, and calls nothing', async () => {
    const calls = mount({ templateId: '2' });
    const region = await previewRegion();
    await waitFor(() => expect(region.textContent).toContain('Fill in Start date to see the preview'), { timeout: 20_000 });
    await act(() => new Promise((r) => setTimeout(r, 600)));
    expect(calls).toEqual([]);
  });

  it('posts the form’s values with preview: true and draws the reply’s items on the timeline', async () => {
    const calls = mount({ templateId: '2', startOn: '2026-04-01' });
    const irrigation = await dom.findByRole('button', { name: /^Irrigation, / }, { timeout: 20_000 });
    expect(calls).toEqual([{ method: 'POST', path: GENERATE, body: { groupId: 4, planTypeId: 3, templateId: 2, startOn: '2026-04-01', preview: true } }]);
    expect(irrigation.getAttribute('aria-label')).toBe('Irrigation, Apr 4, 2026 to Apr 6, 2026, 3 days, Not published');
    // makePlantPlan keeps adjustments: work items of the preview can be moved.
    expect(irrigation.getAttribute('aria-disabled')).toBeNull();
    expect(dom.getByRole('button', { name: /^Weeding, / })).toBeTruthy();
    const region = await previewRegion();
    expect(region.textContent).toContain('Growth stage Seedling, Apr 1, 2026 to Apr 30, 2026');
    expect(region.textContent).toContain('Key node Transplant, May 1, 2026');
  });

  it('asks again once typing pauses (one call for a burst of keystrokes), keeping the last preview meanwhile', async () => {
    const calls = mount({ templateId: '2', startOn: '2026-04-01' });
    await dom.findByRole('button', { name: /^Irrigation, / }, { timeout: 20_000 });
    const name = dom.getByLabelText('Plan name');
    for (const v of ['S', 'Sp', 'Spr', 'Spring']) fireEvent.change(name, { target: { value: v } });
    expect(dom.getByRole('button', { name: /^Irrigation, / })).toBeTruthy();
    await waitFor(() => expect(calls.length).toBe(2), { timeout: 20_000 });
    await act(() => new Promise((r) => setTimeout(r, 600)));
    expect(calls.map((c) => c.body?.name)).toEqual([undefined, 'Spring']);
    expect(calls.every((c) => c.body?.preview === true)).toBe(true);
  });

  it('shows a refusal as the server’s sentence in place of the drawing; the form stays as it was', async () => {
    let refuse = false;
    const calls = mount({ templateId: '2', startOn: '2026-04-01' }, { refuse: () => refuse });
    await dom.findByRole('button', { name: /^Irrigation, / }, { timeout: 20_000 });
    refuse = true;
    fireEvent.change(dom.getByLabelText('Plan name'), { target: { value: 'Long' } });
    const alert = await dom.findByText(REFUSAL, {}, { timeout: 20_000 });
    expect(alert.closest('[role="alert"]')?.textContent).toContain('No preview for these values');
    expect(dom.queryByRole('button', { name: /^Irrigation, / })).toBeNull();
    expect((dom.getByLabelText('Plan name') as HTMLInputElement).value).toBe('Long');
    // Fixed (here: the server accepts again), the preview comes back.
    refuse = false;
    fireEvent.change(dom.getByLabelText('Plan name'), { target: { value: 'Longer' } });
    await dom.findByRole('button', { name: /^Irrigation, / }, { timeout: 20_000 });
    expect(calls.length).toBe(3);
  });

  it('a work item moved on the preview is asked for again with the adjustment, and saved with it', async () => {
    const calls = mount({ templateId: '2', startOn: '2026-04-01' });
    const bar = await dom.findByRole('button', { name: /^Irrigation, / }, { timeout: 20_000 });
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    await waitFor(() => expect(dom.getByRole('button', { name: /^Irrigation, / }).getAttribute('aria-label')).toBe('Irrigation, Apr 5, 2026 to Apr 7, 2026, 3 days, Not published'), { timeout: 20_000 });
    expect(calls[1].body).toEqual({ groupId: 4, planTypeId: 3, templateId: 2, startOn: '2026-04-01', adjustments: [{ orderNumber: 3, startOn: '2026-04-05', endOn: '2026-04-07' }], preview: true });
    fireEvent.click(dom.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.body && !('preview' in c.body))).toBe(true), { timeout: 20_000 });
    expect(calls.find((c) => c.body && !('preview' in c.body))!.body).toEqual({ groupId: 4, planTypeId: 3, templateId: 2, startOn: '2026-04-01', adjustments: [{ orderNumber: 3, startOn: '2026-04-05', endOn: '2026-04-07' }] });
  });

  it('a refused move puts the bar back with the server’s sentence beside it, and the adjustment is taken back', async () => {
    const calls = mount({ templateId: '2', startOn: '2026-04-01' });
    const bar = await dom.findByRole('button', { name: /^Weeding, / }, { timeout: 20_000 });
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    // Beside the bar (an alert) and announced (the timeline's live region).
    const said = await dom.findAllByText(`Not saved: ${WEEDING_REFUSAL}`, {}, { timeout: 20_000 });
    expect(said.some((e) => e.closest('[role="alert"]'))).toBe(true);
    expect(dom.getByRole('button', { name: /^Weeding, / }).getAttribute('aria-label')).toBe('Weeding, Apr 11, 2026 to Apr 11, 2026, 1 day, Not published');
    // Taken back: the preview is asked for again without it, and a save would not carry it.
    await waitFor(() => expect(calls.length).toBe(3), { timeout: 20_000 });
    expect(calls[2].body).not.toHaveProperty('adjustments');
    // The drawing stayed: no refusal in place of the timeline.
    expect(dom.queryByText('No preview for these values')).toBeNull();
  });
});
