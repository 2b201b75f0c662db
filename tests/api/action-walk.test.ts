import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry, type SchemaRegistry } from '../../runtime/schema/registry.ts';
import { buildRouteTable } from '../../runtime/routing/route-table.ts';
import { parseUserInfo } from '../../runtime/session/user-info.ts';
import { fillRoute, idParamOf, resolveRoute, routeParams, type Action, type Screen, type TableParts } from '../../runtime/schema/screen.ts';
import { resolveParams, resolveValue, type ValueContext } from '../../runtime/schema/values.ts';
import { actionAllowed, elementAllowed, type GateContext } from '../../runtime/screens/gating.ts';
import { resolveEndpoint, resourceOperation, transitionRequest } from '../../runtime/screens/endpoints.ts';
import { buildForm, formModel, submitBody } from '../../runtime/screens/form-schema.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { tableSource, withQuery, type EndpointRef } from '../support/screen-sources.ts';
import { importableFields, importHeader } from '../../runtime/schema/resource-import.ts';
import { operationEndpoint } from '../../runtime/protocol/operations.ts';

/**
 * Issue 9 item 3, "no button the server will refuse": every demo account walks the console
 * it would be shown. From the account's real user info, the route table the console builds
 * (registry routes split by menu codes, runtime/routing/route-table.ts); for each screen
 * reached (routes without parameters, then every route a visible navigation leads to, every
 * form a visible action opens, every child of a page), the first rows the server answers;
 * for each toolbar, row, batch, form and detail action, the same gating function the
 * renderer uses (runtime/screens/gating.ts). Every action it shows is then performed
 * against the server as the console would perform it, and must not be refused with 40301
 * (nor 40101, nor fail with a 5xx).
 *
 * The calls are real, destructive ones included: each account walks its own freshly
 * seeded database (a server of its own), so a deletion only changes that account's copy,
 * and the destructive calls run after every other action of the walk. A business refusal (40001,
 * e.g. a seedling base that still has people, or a copied record whose name is taken) is
 * an accepted call that a rule declined, which is what the console is allowed to offer.
 */
const ACCOUNTS = ['admin', 'farm', 'farm2', 'factory', 'center', 'nursery', 'provider', 'agent', 'tech', 'device'];
/** Prompt answers valid for every prompt of the screens (a password's `^\w{6,20}$` included). */
const PROMPT_ANSWER = 'walk2026';

interface Visit {
  screen: Screen;
  authority: string;
  routePattern?: string;
  params: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  via: string;
}

interface Probe {
  where: string;
  action: string;
  method: string;
  url: string;
  status: number;
  http: number;
}

type Reply = { http: number; status: number; data: unknown };

let registry: SchemaRegistry;
beforeAll(async () => {
  registry = await loadRegistry([folderSource(process.cwd())], { lint: false });
});

const ENGINES = engines();
/**
 * The accounts walked on `engine`: with one engine, all; with both (CI), the engines take
 * turns over the accounts, so each account walks once a run and each engine serves half of
 * them (the walk checks the console's gating against the server's authority, which no
 * engine decides); `npm run test:full` (TEST_FULL=1) walks every account on both.
 */
const accountsOn = (engine: (typeof ENGINES)[number]): string[] =>
  process.env.TEST_FULL === '1' ? ACCOUNTS : ACCOUNTS.filter((_, i) => ENGINES[i % ENGINES.length].name === engine.name);

describe.each(ENGINES)('every visible action as every demo account on $name', (engine) => {
  it.each(accountsOn(engine))('%s: each action the console shows is accepted by the server', async (username) => {
    const t = await createTestApp(engine);
    try {
      const walk = await walkAs(t, username);
      const refused = walk.probes.filter((p) => p.status === 40301 || p.status === 40101 || p.http >= 500);
      expect(refused, `refused or failed as ${username}:\n${refused.map((p) => `${p.where} · ${p.action}: ${p.method} ${p.url} → ${p.status} (HTTP ${p.http})`).join('\n')}`).toEqual([]);
      expect(walk.problems, `walk problems as ${username}`).toEqual([]);
      // The walk saw something (the device manager's screens are not written yet).
      if (username === 'admin') expect(walk.probes.length).toBeGreaterThan(50);
      // The planting rules' review: the admin is offered (and the server accepts) the transitions of the first rows' states.
      if (username === 'admin') expect(walk.transitions.length).toBeGreaterThan(0);
      // Nobody is offered disabling or deleting their own account (the server's rule, answered 40001).
      const own = walk.probes.filter((p) => p.url === `/api/admin/user/${walk.me}` || p.url.startsWith(`/api/admin/user/updateUserStatus?id=${walk.me}&`));
      expect(own.filter((p) => ['停用', '启用', '删除'].includes(p.action)).map((p) => `${p.action} ${p.url}`)).toEqual([]);
    } finally {
      await t.close();
    }
    // The admin's walk opens every screen of the platform: a minute or more on a loaded 2-core machine.
  }, 240_000);

  it('hides what the server refuses: the seedling base is not offered its own deletion', async () => {
    const t = await createTestApp(engine);
    try {
      const walk = await walkAs(t, 'nursery');
      const shown = walk.shown.filter((s) => s.where.startsWith('nurseryManage'));
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.map((s) => s.action)).not.toContain('删除');
      expect(walk.hidden.filter((s) => s.where.startsWith('nurseryManage')).map((s) => s.action)).toContain('删除');
    } finally {
      await t.close();
    }
  });
});

afterAll(() => undefined);

async function walkAs(t: TestApp, username: string) {
  const token = await t.login(username);
  const call = async (method: string, url: string, body?: unknown): Promise<Reply> => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: { authorization: token, 'accept-language': 'zh' }, payload: body as object | undefined });
    let parsed: { status?: number; data?: unknown } = {};
    try {
      parsed = res.json();
    } catch {
      parsed = {};
    }
    return { http: res.statusCode, status: parsed.status ?? res.statusCode, data: parsed.data };
  };
  const info = parseUserInfo((await call('GET', `/api/admin/user/front/info?token=${encodeURIComponent(token)}`)).data);
  const menus = new Set(info.menus);
  const elements = new Set(info.elements);
  const table = buildRouteTable(
    [...registry.routes.values()].map((r) => ({ path: r.route, authority: r.authority, entry: r })),
    menus,
  );
  const permitted = new Set(table.permitted.map((r) => r.path));

  const probes: Probe[] = [];
  const problems: string[] = [];
  const shown: { where: string; action: string }[] = [];
  /** The transitions performed (shown on a row whose state allows them). */
  const transitions: string[] = [];
  const hidden: { where: string; action: string }[] = [];
  const screens = new Set<string>();
  const seen = new Set<string>();
  const queue: Visit[] = [];
  const enqueue = (v: Visit) => {
    const key = `${v.screen.id}|${v.authority}`;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push(v);
  };
  for (const r of table.permitted) {
    const screen = r.entry.screen.screen;
    if (screen.public || routeParams(r.path).length) continue;
    enqueue({ screen, authority: r.authority, routePattern: r.path, params: {}, query: {}, via: r.path });
  }

  const probe = async (where: string, action: Action, method: string, url: string, body?: unknown) => {
    const r = await call(method, url, body);
    probes.push({ where, action: label(action), method, url, status: r.status, http: r.http });
    return r;
  };

  // The destructive calls of every screen run after everything else of the walk: a deletion
  // on one screen (a batch's residue test) must not take away what another screen shows
  // later (that batch's public trace page, which a held batch does not have).
  const later: (() => Promise<void>)[] = [];
  while (queue.length) {
    const v = queue.shift()!;
    screens.add(v.screen.id);
    const gc: GateContext = { elements, authority: v.authority, registry, resource: v.screen.resource };
    const baseCtx: ValueContext = { route: v.params, query: v.query };
    const where = `${v.screen.id} (${v.via})`;

    const perform = async (action: Action, ctx: ValueContext, data: unknown, at: string) => {
      const name = `${at}`;
      if (action.kind === 'navigate') {
        const pattern = resolveRoute(action.to, v.routePattern);
        const path = fillRoute(pattern, resolveParams(action.params, ctx));
        if (!path) return; // shown disabled, never followed
        if (action.document) {
          // A page the server serves outside the console (the trace page): it must answer, without a session.
          const res = await t.app.inject({ method: 'GET', url: path });
          if (res.statusCode !== 200) problems.push(`${name} · ${label(action)}: the document ${path} answered ${res.statusCode}`);
          return;
        }
        const match = registry.match(path);
        if (!match) return void problems.push(`${name} · ${label(action)}: ${path} is no route`);
        if (!permitted.has(match.route)) return void problems.push(`${name} · ${label(action)}: ${path} leads to a route the user may not open (${match.authority})`);
        // The link's query travels with it, as the console's navigate does (a lot code, say).
        const query = action.query ? (resolveParams(action.query, ctx) as Record<string, string | undefined>) : {};
        enqueue({ screen: match.screen.screen, authority: match.authority, routePattern: match.route, params: match.params, query, via: path });
        return;
      }
      if (action.kind === 'export') {
        const src = tableSource(registry, v.screen as TableParts & Screen, ctx, v.screen.resource);
        if (src) await probe(name, action, 'GET', withQuery(src, { pageIndex: 1, pageSize: 100 }));
        return;
      }
      if (action.kind === 'openForm') {
        const form = registry.screen(action.screen);
        if (form?.kind !== 'form') return void problems.push(`${name} · ${label(action)}: ${action.screen} is no form`);
        const params: Record<string, string | undefined> = {};
        for (const [k, val] of Object.entries(resolveParams(action.params, ctx))) params[k] = val === undefined || val === null ? undefined : String(val);
        const id = params[form.idParam ?? 'id'];
        const formCtx: ValueContext = { route: { ...v.params, ...params }, query: v.query };
        const doc = form.resource ? registry.resource(form.resource) : undefined;
        const model = formModel(form, doc);
        let loaded: Record<string, unknown> | null = null;
        if (action.mode !== 'add') {
          const ep = form.endpoints?.load ? resolveEndpoint(form.endpoints.load, formCtx, registry, form.resource) : doc && id ? resourceOperation(doc, 'read', id) : null;
          if (!ep) return; // no record to open: the button is disabled
          const r = await probe(name, action, ep.method, ep.url);
          loaded = (r.data as Record<string, unknown>) ?? null;
        }
        // The form's own footer actions, against the record it shows.
        enqueue({ screen: form, authority: v.authority, routePattern: v.routePattern, params: { ...v.params, ...params, [form.modeParam ?? 'operate']: action.mode }, query: v.query, via: `${v.via} → ${form.id}/${action.mode}` });
        if (action.mode === 'show' || !model) return;
        // Submit what the form would submit: the loaded record (edit), or the first row copied (add).
        const initial: Record<string, unknown> = {};
        for (const [k, ref] of Object.entries(action.initial ?? {})) initial[k] = resolveValue(ref, ctx);
        const source = action.mode === 'edit' ? (loaded ?? {}) : { ...((data as Record<string, unknown>) ?? {}), ...initial };
        const values: Record<string, unknown> = {};
        for (const k of Object.keys(model.record.properties)) if (source[k] !== undefined && source[k] !== null) values[k] = source[k];
        const built = buildForm(form, model, action.mode, values, 'zh', new Map());
        const body = submitBody(built.fields, values, action.mode, loaded);
        const ep =
          action.mode === 'add'
            ? form.endpoints?.create
              ? resolveEndpoint(form.endpoints.create, { ...formCtx, record: values }, registry, form.resource)
              : doc
                ? resourceOperation(doc, 'create')
                : null
            : form.endpoints?.update
              ? resolveEndpoint(form.endpoints.update, { ...formCtx, record: values }, registry, form.resource)
              : doc
                ? resourceOperation(doc, 'update', id)
                : null;
        if (ep) await probe(`${name} → save`, action, ep.method, ep.url, body);
        return;
      }
      if (action.kind === 'import') {
        // As the console's dialog: a preview of a file in the template's columns (a 40001 about its rows counts as accepted).
        const doc = registry.resource(action.resource ?? v.screen.resource ?? '');
        if (!doc) return void problems.push(`${name} · ${label(action)}: shown, but imports into no resource`);
        const fields = action.fields ?? importableFields(doc);
        const file = `${fields.map((f) => importHeader(doc, f, 'zh')).join(',')}\r\n${fields.map(() => '-').join(',')}\r\n`;
        const ep = operationEndpoint(doc, 'import');
        await probe(name, action, ep.method, ep.path, { mode: 'preview', content: Buffer.from(file).toString('base64') });
        return;
      }
      if (action.kind === 'transition') {
        // As the console: the transition's route with the row's version, a reason when the transition takes one.
        const req = transitionRequest(action, (ctx.row ?? ctx.record) as Record<string, unknown> | undefined, registry, v.screen.resource);
        if (!req) return void problems.push(`${name} · ${label(action)}: shown, but no request can be made of it`);
        transitions.push(action.transition);
        await probe(name, action, req.method, req.url, { ...req.body, ...(req.declared.reason ? { reason: PROMPT_ANSWER } : {}) });
        return;
      }
      const ep = resolveEndpoint(action.endpoint, ctx, registry, v.screen.resource);
      if (!ep) return; // disabled
      const body = action.body || action.prompt ? { ...resolveParams(action.body, ctx), ...(action.prompt ? { [action.prompt.field]: PROMPT_ANSWER } : {}) } : undefined;
      const run = async () => void (await probe(name, action, ep.method, ep.url, body));
      if (ep.method === 'DELETE') later.push(run);
      else await run();
    };

    const offer = async (actions: Action[] | undefined, ctx: ValueContext, data: unknown, at: string) => {
      for (const a of actions ?? []) {
        if (!actionAllowed(a, gc, data)) {
          hidden.push({ where: at, action: label(a) });
          continue;
        }
        shown.push({ where: at, action: label(a) });
        await perform(a, ctx, data, at);
      }
    };

    const walkTable = async (parts: TableParts, ctx: ValueContext, resource: string | undefined, endpoint: EndpointRef | undefined, at: string) => {
      await offer(parts.toolbar, ctx, {}, `${at} toolbar`);
      const src = tableSource(registry, { ...parts, endpoint }, ctx, resource);
      if (!src) return;
      const r = await call('GET', parts.paged === false ? src : withQuery(src, { pageIndex: 1, pageSize: 10 }));
      if (r.status !== 200) return void problems.push(`${at}: reading ${src} answered ${r.status}`);
      const rows = (Array.isArray(r.data) ? r.data : ((r.data as { rows?: unknown[] })?.rows ?? [])) as Record<string, unknown>[];
      for (const row of rows.slice(0, 2)) await offer(parts.rowActions, { ...ctx, row }, row, `${at} row`);
      const first = rows[0];
      if (first) {
        for (const a of parts.batchActions ?? []) {
          if (!elementAllowed(a, gc) || !actionAllowed(a, gc, first)) continue;
          shown.push({ where: `${at} batch`, action: label(a) });
          await perform(a, { ...ctx, selection: [first] }, first, `${at} batch`);
        }
      }
    };

    const s = v.screen;
    if (s.kind === 'table') {
      await walkTable(s, baseCtx, s.resource, s.endpoint, where);
    } else if (s.kind === 'form') {
      const mode = (v.params[s.modeParam ?? 'operate'] ?? s.defaultMode ?? 'add') as 'add' | 'edit' | 'show';
      const doc = s.resource ? registry.resource(s.resource) : undefined;
      const id = v.params[idParamOf(s, v.routePattern)];
      let record: unknown = {};
      if (mode !== 'add') {
        const ep = s.endpoints?.load ? resolveEndpoint(s.endpoints.load, baseCtx, registry, s.resource) : doc && id ? resourceOperation(doc, 'read', id) : null;
        if (ep) record = (await call(ep.method, ep.url)).data ?? {};
      }
      await offer(s.actions, { ...baseCtx, record }, record, `${where} form`);
    } else if (s.kind === 'detail') {
      const doc = s.resource ? registry.resource(s.resource) : undefined;
      const id = v.params[idParamOf(s, v.routePattern)];
      const ep = s.load ? resolveEndpoint(s.load, baseCtx, registry, s.resource) : doc && id ? resourceOperation(doc, 'read', id) : null;
      const r = ep ? await call(ep.method, ep.url) : null;
      if (r && r.status !== 200) problems.push(`${where}: reading ${ep?.url} answered ${r.status}`);
      const record = (r?.data as Record<string, unknown>) ?? {};
      const ctx = { ...baseCtx, record };
      await offer(s.actions, ctx, record, `${where} detail`);
      for (const [i, rel] of (s.related ?? []).entries()) {
        const parts = { ...rel, fixedFilters: [...(rel.fixedFilters ?? []), { field: rel.foreignKey, value: `record.${rel.parentField ?? 'id'}` as const }] };
        await walkTable(parts, ctx, rel.resource, undefined, `${where} related ${i}`);
      }
    } else if (s.kind === 'page') {
      for (const child of s.children) {
        const screen = registry.screen(child.screen);
        if (!screen) continue;
        const params: Record<string, string | undefined> = { ...v.params };
        for (const [k, val] of Object.entries(resolveParams(child.params, baseCtx))) params[k] = val === undefined || val === null ? undefined : String(val);
        enqueue({ screen, authority: v.authority, routePattern: v.routePattern, params, query: v.query, via: `${v.via} ▸ ${screen.id}` });
      }
    }
  }
  for (const run of later) await run();
  return { probes, problems, shown, hidden, screens, transitions, me: info.id };
}

function label(a: Action): string {
  return typeof a.label === 'string' ? a.label : a.label.zh;
}
