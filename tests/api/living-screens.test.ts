/**
 * "A newcomer must see a living farm": every list a demo account opens from its menus
 * (a table screen at a route without parameters, or a table inside such a page) shows seeded
 * rows for that account. The walk reads each list as the console would (the same route
 * table, endpoint resolution and fixed filters), reads only, and reports every empty list
 * at once. The few lists that are empty by design for an account are named below with why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import { buildRouteTable } from '../../runtime/routing/route-table.ts';
import { parseUserInfo } from '../../runtime/session/user-info.ts';
import { routeParams, type Screen } from '../../runtime/schema/screen.ts';
import { resolveParams } from '../../runtime/schema/values.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { tableSource, withQuery } from '../support/screen-sources.ts';

const ACCOUNTS = ['admin', 'farm', 'farm2', 'factory', 'center', 'nursery', 'provider', 'agent', 'tech', 'device', 'config'];

/** Lists empty by design for an account: `account screen-id` → why. */
const EMPTY_BY_DESIGN: Record<string, string> = {
  'config customerAgent': 'people’s accounts are not opened to the configurer: the list shows only its own kind, and it is no agent',
  'config groupCustomer': 'people’s accounts are not opened to the configurer: the list shows only its own kind, and it is no provider',
  'admin agentCustomers': 'the list is the caller’s own customers (the customer agent’s screen); the administrator serves no farm',
  'admin agentBusiness': 'the list is the caller’s own service business; the administrator takes part in none',
  'config agentCustomers': 'the list is the caller’s own customers; the configurer serves no farm',
  'config agentBusiness': 'the list is the caller’s own service business; the configurer takes part in none',
  'farm2 deviceAlarms': 'the seeded alarms are on the first demo farm (docs/devices.md, "Seed"); the second farm has had none',
  'farm2 recallList': 'the seeded recalls are on the first demo farm (docs/harvest-sales-trace.md, the seed story); the second farm has recalled nothing',
};

let registry: SchemaRegistry;
beforeAll(async () => {
  registry = await loadRegistry([folderSource(process.cwd())], { lint: false });
});

describe.each(engines())('every menu list of every demo account shows seeded rows on $name', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(async () => t?.close());

  it.each(ACCOUNTS)('%s', async (username) => {
    const token = await t.login(username);
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: token, 'accept-language': 'zh' } });
      const body = res.json() as { status?: number; data?: unknown };
      return { status: body.status ?? res.statusCode, data: body.data };
    };
    const info = parseUserInfo((await get(`/api/admin/user/front/info?token=${encodeURIComponent(token)}`)).data);
    const table = buildRouteTable(
      [...registry.routes.values()].map((r) => ({ path: r.route, authority: r.authority, entry: r })),
      new Set(info.menus),
    );
    const lists: { where: string; screen: Screen }[] = [];
    for (const r of table.permitted) {
      const screen = r.entry.screen.screen;
      if (screen.public || routeParams(r.path).length) continue;
      if (screen.kind === 'table') lists.push({ where: r.path, screen });
      if (screen.kind === 'page') {
        for (const child of screen.children) {
          // A block shown only to holders of some code (ScreenView's PageView does the same).
          if (child.requires && !child.requires.some((c) => info.menus.includes(c) || info.elements.includes(c))) continue;
          const inner = registry.screen(child.screen);
          if (inner?.kind === 'table' && !Object.keys(resolveParams(child.params, { route: {}, query: {} })).length) lists.push({ where: `${r.path} ▸ ${inner.id}`, screen: inner });
        }
      }
    }
    const seen = new Set<string>();
    const empty: string[] = [];
    const failed: string[] = [];
    for (const { where, screen } of lists) {
      if (screen.kind !== 'table' || seen.has(screen.id)) continue;
      seen.add(screen.id);
      const src = tableSource(registry, screen, { route: {}, query: {} }, screen.resource);
      if (!src) continue;
      const r = await get(screen.paged === false ? src : withQuery(src, { pageIndex: 1, pageSize: 1 }));
      if (r.status !== 200) {
        failed.push(`${where} (${screen.id}): ${src} answered ${r.status}`);
        continue;
      }
      const rows = Array.isArray(r.data) ? r.data : ((r.data as { rows?: unknown[] } | null)?.rows ?? []);
      if (!rows.length && !EMPTY_BY_DESIGN[`${username} ${screen.id}`]) empty.push(`${where} (${screen.id}): ${src}`);
    }
    expect(failed, `lists that did not answer as ${username}`).toEqual([]);
    expect(empty, `empty lists as ${username}`).toEqual([]);
    expect(seen.size).toBeGreaterThan(0);
  });
});
