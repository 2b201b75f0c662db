// @vitest-environment jsdom
/**
 * The timeline's adapter (widgets/planting-timeline/index.tsx) with the console's real
 * services and HTTP client over a real socket, against a local HTTP server that answers the
 * two calls of the engine's contract (docs/resources.md): the plan's page, and an update that
 * checks the version and refuses with 40001. The planItems resource itself is not on this
 * branch; the test through the real engine is left for the merge (docs/planting.md).
 */
import { giveElementsDesktopSize } from './desktop-layout.ts';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { registerDefaultFeatures } from '../../runtime/app/default-features.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { buildRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import { ServicesContext } from '../../runtime/services/context.ts';
import { createConsoleServices, type ConsoleServices } from '../../runtime/app/services.ts';
import { userInfoAtom } from '../../runtime/session/atoms.ts';
import { memoryStore } from '../../runtime/session/key-value.ts';
import { dayOf, isoOf, todayDay } from '../../widgets/planting-timeline/dates.ts';
import PlantingTimelineWidget from '../../widgets/planting-timeline/index.tsx';
import type { PlanItemRow } from '../../widgets/planting-timeline/plan-items.ts';
import { json, startHttpStub } from './http-stub.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const registry = buildRegistry((folderSource(ROOT).documents() as SourceDocument[]).map((d) => ({ ...d, source: 'bundled' })));
const SEASON_END = '2026-08-31';
const REFUSAL = 'The dates must fall inside the season';
let rows: PlanItemRow[] = [];
let stub: Awaited<ReturnType<typeof startHttpStub>>;

function seed(): PlanItemRow[] {
  const base = { planId: 9, farmId: 1, farmName: 'Demo farm', labels: {} };
  return [
    { ...base, id: 1, version: 1, orderNumber: 1, itemType: 'stage', name: 'Seedling', startOn: '2026-04-01', endOn: '2026-04-30' },
    { ...base, id: 2, version: 1, orderNumber: 2, itemType: 'keyNode', name: 'Transplant', startOn: '2026-05-01', endOn: '2026-05-01' },
    { ...base, id: 3, version: 3, orderNumber: 3, itemType: 'work', name: 'Irrigation', workTypeId: 4, startOn: '2026-08-20', endOn: '2026-08-22', materials: [{ name: 'Water', amountPerMu: 5, unit: 't' }] },
  ];
}

/** The engine's update as the contract says: whole record, version checked and raised, a rule refused with 40001. */
function update(id: number) {
  return (req: { method: string; body: string }, res: Parameters<typeof json>[0]) => {
    const row = rows.find((r) => r.id === id)!;
    const body = JSON.parse(req.body) as PlanItemRow;
    if (body.version !== row.version) return json(res, 400, { status: 40001, message: 'This record was modified by someone else; reload it and try again', data: { errors: [{ field: 'version', message: '…' }] } });
    if (body.endOn > SEASON_END) return json(res, 400, { status: 40001, message: REFUSAL, data: { errors: [{ field: 'endOn', message: REFUSAL }] } });
    Object.assign(row, body, { version: row.version + 1 });
    // The server moves successors as far as their dependencies need (docs/planting.md, "Dependencies").
    for (const next of rows.filter((r) => r.after === id)) {
      const earliest = dayOf(row.endOn) + 1 + (next.lagDays ?? 0);
      const shift = earliest - dayOf(next.startOn);
      if (shift > 0) Object.assign(next, { startOn: isoOf(earliest), endOn: isoOf(dayOf(next.endOn) + shift), version: next.version + 1 });
    }
    json(res, 200, { status: 200, message: 'ok', data: row });
  };
}

beforeAll(async () => {
  registerDefaultFeatures();
  giveElementsDesktopSize();
  stub = await startHttpStub({
    '/api/farmPlantGroup/planItems/page': (_req, res) => json(res, 200, { status: 200, message: 'ok', data: { rows, total: rows.length, pageIndex: 1, pageSize: 500 } }),
    '/api/farmPlantGroup/planItems/3': update(3),
  });
});
afterAll(() => stub.close());
afterEach(() => {
  cleanup();
  stub.requests.length = 0;
});

function mount(elements: string[]): ConsoleServices {
  rows = seed();
  const services = createConsoleServices({ cookies: memoryStore({ language: 'en', token: 't' }), local: memoryStore(), baseUrl: stub.baseUrl });
  services.store.set(userInfoAtom, { id: 1, name: 'QA', description: null, farmId: 1, farmName: 'Demo farm', farmType: null, groupId: null, groupName: null, menus: ['farmPlantGroupList'], elements, roles: [], city: null, chiefFarmId: null });
  render(
    <ServicesContext.Provider value={services}>
      <JotaiProvider store={services.store}>
        <I18nextProvider i18n={services.i18n}>
          <PlantingTimelineWidget
            config={{ editElement: ':edit', seasonStart: '2026-03-01', seasonEnd: SEASON_END }}
            route={{ id: '5', planId: '9' }}
            authority="farmPlantGroupList"
            services={services}
            registry={registry}
            language="en"
          />
        </I18nextProvider>
      </JotaiProvider>
    </ServicesContext.Provider>,
  );
  return services;
}

const irrigation = () => screen.findByRole('button', { name: /^Irrigation, / });

describe('planting timeline adapter', () => {
  it('reads the plan of the route, and a saved move sends the whole record with its version', async () => {
    mount(['farmPlantGroupList:edit']);
    const bar = await irrigation();
    expect(stub.requests[0].url).toBe('/api/farmPlantGroup/planItems/page?planId=9&pageSize=500');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toContain('Growth stage Seedling, Apr 1, 2026 to Apr 30, 2026');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toContain('Key node Transplant, May 1, 2026');
    // Not published; overdue once its end is past (the adapter dates "today" by the clock).
    const status = dayOf('2026-08-22') < todayDay() ? 'Overdue' : 'Not published';
    expect(bar.getAttribute('aria-label')).toBe(`Irrigation, Aug 20, 2026 to Aug 22, 2026, 3 days, ${status}`);
    fireEvent.keyDown(bar, { key: 'ArrowLeft' });
    fireEvent.keyDown(bar, { key: 'ArrowLeft' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Irrigation moved to Aug 18, 2026 – Aug 20, 2026'));
    const put = stub.requests.find((r) => r.method === 'PUT')!;
    expect(put.url).toBe('/api/farmPlantGroup/planItems/3');
    expect(JSON.parse(put.body)).toMatchObject({ id: 3, version: 3, planId: 9, orderNumber: 3, itemType: 'work', workTypeId: 4, startOn: '2026-08-18', endOn: '2026-08-20', materials: [{ name: 'Water', amountPerMu: 5, unit: 't' }] });
    // The reply's version is kept: a second move is accepted too.
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    await waitFor(() => expect(rows[2].version).toBe(5));
    expect(rows[2].startOn).toBe('2026-08-19');
  });

  it('a refused move snaps back with the server sentence at the bar, and the plan is read again', async () => {
    mount(['farmPlantGroupList:edit']);
    const bar = await irrigation();
    for (let i = 0; i < 12; i++) fireEvent.keyDown(bar, { key: 'ArrowRight', shiftKey: true });
    // The timeline offers no day past the season it was given: the end stops at Aug 31.
    expect(bar.getAttribute('aria-label')).toContain('Aug 20, 2026 to Aug 31, 2026');
    rows[2].version = 7; // someone else saved meanwhile
    await act(async () => {
      fireEvent.keyDown(bar, { key: 'Enter' });
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Not saved: This record was modified by someone else; reload it and try again');
    expect(bar.getAttribute('aria-label')).toContain('Aug 20, 2026 to Aug 22, 2026');
    await waitFor(() => expect(stub.requests.filter((r) => r.method === 'GET')).toHaveLength(2));
    // With the plan read again, the same move now carries the current version and is saved.
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    await waitFor(() => expect(rows[2].version).toBe(8));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a move that pushes a successor reads the plan again, and the successor’s bar shows its new dates', async () => {
    mount(['farmPlantGroupList:edit']);
    rows.push({ ...rows[2], id: 4, version: 1, orderNumber: 4, name: 'Harvest', startOn: '2026-08-24', endOn: '2026-08-25', materials: undefined, after: 3, lagDays: 0 });
    await screen.findByRole('button', { name: /^Harvest, Aug 24, 2026 to Aug 25, 2026/ });
    const bar = await irrigation();
    const gets = () => stub.requests.filter((r) => r.method === 'GET').length;
    const before = gets();
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    // Irrigation to Aug 22 – 24: Harvest (after it, no lag) must start on Aug 25, a day later, keeping its two days.
    await screen.findByRole('button', { name: /^Harvest, Aug 25, 2026 to Aug 26, 2026/ });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Irrigation moved to Aug 22, 2026 – Aug 24, 2026'));
    expect(rows[3]).toMatchObject({ startOn: '2026-08-25', endOn: '2026-08-26', version: 2 });
    expect(gets()).toBe(before + 1);
  });

  it('without the edit element the plan is shown read-only and nothing is sent', async () => {
    mount([]);
    const bar = await irrigation();
    expect(bar.getAttribute('aria-disabled')).toBe('true');
    fireEvent.keyDown(bar, { key: 'ArrowLeft' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    expect(stub.requests.filter((r) => r.method === 'PUT')).toEqual([]);
  });
});
