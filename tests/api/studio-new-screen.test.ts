/**
 * A new screen made in the schema studio (docs/studio.md, "A new screen"): a table, form,
 * detail or dashboard document from the studio's templates, bound to an existing resource,
 * at a route, behind a menu code. It passes the same gate as any document — refused for
 * each rule with file and pointer, nothing stored; a route another screen holds is refused
 * on the route field in the caller's language — and once published it is listed as new,
 * sent to every console, and reachable at its route for a role holding its menu code, with
 * the data it shows.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryWith, type PublishedSet } from '../../runtime/app/published-screens.ts';
import { screenRoutes } from '../../runtime/schema/screen.ts';
import { newScreenDocument, newScreenFile, type NewScreenInput, type TemplateResource } from '../../widgets/schema-studio/templates.ts';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';

const crops = JSON.parse(readFileSync(new URL('../../schemas/resources/crops.json', import.meta.url), 'utf8')) as TemplateResource;
const text = (doc: unknown) => JSON.stringify(doc, null, 2);
const input = (over: Partial<NewScreenInput> = {}): NewScreenInput => ({
  kind: 'table',
  id: 'cropsOverview',
  title: { zh: '作物总览', en: 'Crops overview', es: 'Resumen de cultivos' },
  resource: crops,
  route: '/agricultureKnowledge/cropsOverview',
  authority: 'agricultureKnowledgeCropsManager',
  ...over,
});

describe.each(engines())('a new screen from the studio on $name', (engine) => {
  let t: TestApp;
  let admin: string;
  let config: string;
  let center: string;

  const stored = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_revisions')).rows[0].n;
  const publish = (file: string, doc: unknown, lang = 'en', token = config) =>
    call(t, token, 'POST', '/api/studio/publish', { file, content: typeof doc === 'string' ? doc : text(doc), baseRevision: 0, comment: 'a new screen' }, lang);
  /** Refused with 40001 at `file#pointer` for each pointer; nothing stored. Returns the errors. */
  const refused = async (file: string, doc: unknown, pointers: string[], lang = 'en') => {
    const before = await stored();
    const r = await publish(file, doc, lang);
    expect(r.status, r.raw.body).toBe(40001);
    const errors = r.data.errors as { field: string; message: string }[];
    for (const p of pointers) expect(errors.map((e) => e.field), r.raw.body).toContain(`${file}#${p}`);
    expect(await stored()).toBe(before);
    return errors;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    [admin, config, center] = await Promise.all([t.login('admin'), t.login('config'), t.login('center')]);
  }, 120_000);
  afterAll(async () => t?.close());

  it('passes every template through the gate and the render check (nothing stored by a check)', async () => {
    for (const kind of ['table', 'form', 'detail', 'dashboard'] as const) {
      const id = `crops${kind[0].toUpperCase()}${kind.slice(1)}New`;
      const doc = newScreenDocument(input({ kind, id, route: `/agricultureKnowledge/${id}` }));
      const r = await call(t, config, 'POST', '/api/studio/check', { file: newScreenFile(id), content: text(doc) }, 'en');
      expect(r.status, r.raw.body).toBe(200);
      expect((r.data.problems as { severity: string }[]).filter((p) => p.severity === 'error'), `${kind}: ${r.raw.body}`).toEqual([]);
    }
    expect(await stored()).toBe(0);
  }, 120_000);

  it('refuses a route another screen holds, on the route field, in the caller’s language', async () => {
    const file = newScreenFile('cropsOverview');
    const taken = newScreenDocument(input({ route: '/agricultureKnowledge/cropsManager' }));
    const [zh] = await refused(file, taken, ['/route'], 'zh');
    expect(zh.message).toMatch(/路由「\/agricultureKnowledge\/cropsManager」已被页面「cropsManager」/);
    const en = await refused(file, taken, ['/route'], 'en');
    expect(en.find((e) => e.field === `${file}#/route`)?.message).toMatch(/already taken by the screen "cropsManager"/);
    // A parameter stands for any value: /x/:id and /x/:recordId are the same route.
    const alias = newScreenDocument(input({ route: '/agricultureKnowledge/cropsOverview', kind: 'table' }));
    (alias as Body).aliases = [{ route: '/bigData-kms/cropsManager' }];
    await refused(file, alias, ['/aliases/0/route'], 'es');
  }, 60_000);

  it('refuses a new screen for every other gate rule, nothing stored', async () => {
    const file = newScreenFile('cropsOverview');
    // Outside the studio's folder.
    await refused('schemas/screens/knowledge/cropsOverview.json', newScreenDocument(input()), ['']);
    // The file is named after the id; an id another screen has.
    await refused(newScreenFile('cropsOverview2'), newScreenDocument(input()), ['/id']);
    const twin = await refused(newScreenFile('cropsManager'), newScreenDocument(input({ id: 'cropsManager' })), ['/id']);
    expect(twin.map((e) => e.message).join(' ')).toMatch(/already used by schemas\/screens\/knowledge\/cropsManager\.json/);
    // Meta-schema: an unknown property; a column not in the resource; an unknown authority key; a text without es.
    await refused(file, { ...newScreenDocument(input()), colour: 'red' }, ['/colour']);
    const unknownField = newScreenDocument(input()) as { columns: Body[] };
    unknownField.columns[0] = { field: 'noSuchField' };
    await refused(file, unknownField, ['/columns/0/field']);
    await refused(file, newScreenDocument(input({ authority: 'noSuchMenuCode' })), ['/authority']);
    await refused(file, newScreenDocument(input({ title: { zh: '作物总览', en: 'Crops overview', es: '' } })), ['/title/es']);
    // A resource that does not exist.
    await refused(file, newScreenDocument(input({ resource: { ...crops, name: 'noSuchResource' } })), ['/resource']);
    // Publishing needs the element code; the farm has no studio at all.
    const farm = await t.login('farm');
    expect((await publish(file, newScreenDocument(input()), 'en', farm)).status).toBe(40301);
  }, 120_000);

  it('publishes a new table screen, lists it as new, and makes it reachable at its route for a role holding its menu code', async () => {
    const file = newScreenFile('cropsOverview');
    const doc = newScreenDocument(input());
    // The configurer's draft first (private), then the publish from revision 0.
    expect((await call(t, config, 'PUT', '/api/studio/draft', { file, content: text(doc), baseRevision: 0 })).status).toBe(200);
    const opened = await call(t, config, 'GET', `/api/studio/document?file=${encodeURIComponent(file)}`);
    expect(opened.data).toMatchObject({ file, type: 'screen', revision: 0, bundled: null, published: null, draft: { baseRevision: 0 } });
    const r = await publish(file, doc);
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data.revision).toBe(1);
    // A second "new" publish from revision 0 is a lost update: refused.
    expect((await publish(file, doc)).status).toBe(40001);

    const listed = ((await call(t, admin, 'GET', '/api/studio/documents')).data as Body[]).find((d) => d.file === file);
    expect(listed).toMatchObject({ type: 'screen', id: 'cropsOverview', status: 'new', revision: 1, routes: ['/agricultureKnowledge/cropsOverview'] });
    // Its section: the menu section holding its menu code.
    expect(listed?.section).toBe('agricultureKnowledge');
    const log = await t.db.query<{ username: string; changes: { revision: number; diff: unknown[] } }>(
      `SELECT username, changes FROM operation_log WHERE action = 'studio.publish' AND record_id = $1`,
      [file],
    );
    expect(log.rows).toHaveLength(1);
    expect(log.rows[0]).toMatchObject({ username: 'config', changes: { revision: 1 } });
    expect(log.rows[0].changes.diff.length).toBeGreaterThan(0);

    // What a console of the regional center (holding cropsManager) receives and routes.
    const published = (await call(t, center, 'GET', '/api/schemas/published')).data as PublishedSet;
    expect(published.documents.map((d) => d.file)).toContain(file);
    const registry = await registryWith(published);
    const screen = registry.screen('cropsOverview');
    expect(screen).toMatchObject({ kind: 'table', resource: 'crops', revision: 1 });
    const route = screenRoutes(screen!).find((x) => x.route === '/agricultureKnowledge/cropsOverview');
    expect(route?.authority).toBe('agricultureKnowledgeCropsManager');
    const info = await call(t, center, 'GET', `/api/admin/user/front/info?token=${center}`);
    const codes = (d: Body) => (d.menus as { code: string }[]).map((m) => m.code);
    expect(codes(info.data)).toContain('agricultureKnowledgeCropsManager');
    // The data it shows: the crops' page, as the center.
    const page = await call(t, center, 'GET', '/api/kms/crops/page?pageIndex=1&pageSize=5');
    expect(page.status, page.raw.body).toBe(200);
    expect((page.data as { total: number }).total).toBeGreaterThan(0);
    // A role without the menu code is not offered the route (the console's guard): the customer agent.
    const agent = await t.login('agent');
    const agentInfo = await call(t, agent, 'GET', `/api/admin/user/front/info?token=${agent}`);
    expect(codes(agentInfo.data)).not.toContain('agricultureKnowledgeCropsManager');
  }, 120_000);
});
