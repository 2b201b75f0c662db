import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { loadSessionUser } from '../../server/auth/session-user.ts';
import { accessKeys, authorityKeys, readKeys, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { countOf, farmReferences, recordOfFarm } from './reference-fixtures.ts';
import { allCodes, call, declaredRefusals, recordOf, writeOrSkip, type Refused, demoOrg, docs, makeUser, outsideFarm, someRow, variant, type Body, type Reply } from './resource-fixtures.ts';

const MISSING = 2147483000;
/** The demo accounts whose reads reach several farms: all, the region, the bloc, the platform (the configurer's previews). */
const READS_MANY_FARMS = new Set(['admin', 'center', 'provider', 'tech', 'config']);
const byName = (list: ResourceDocument[]) => list.map((d) => [d.name, d] as const);
const same = (r: Reply) => ({ http: r.http, status: r.status, message: r.message, data: r.data });

describe.each(engines())('resource authority and scope on $name', (engine) => {
  let t: TestApp;
  let admin: string;
  let farm1: { orgId: number; blocId: number | null };
  let farm2: { orgId: number; blocId: number | null };
  let farm3: number;
  let w1: string, w2: string, w3: string, provider: string, reader: string, nobody: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin');
    farm1 = await demoOrg(t.db, 'farm');
    farm2 = await demoOrg(t.db, 'farm2');
    farm3 = await outsideFarm(t.db);
    const codes = allCodes();
    w1 = (await makeUser(t, { orgId: farm1.orgId, ...codes })).token;
    w2 = (await makeUser(t, { orgId: farm2.orgId, ...codes })).token;
    w3 = (await makeUser(t, { orgId: farm3, ...codes })).token;
    provider = (await makeUser(t, { blocId: farm1.blocId, ...codes })).token;
    reader = (await makeUser(t, { orgId: farm1.orgId, menus: codes.menus, elements: [] })).token;
    nobody = (await makeUser(t, { orgId: farm1.orgId, menus: [], elements: [] })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the demo farms are two farms of one bloc, the outside farm of none', () => {
    expect(farm1.orgId).not.toBe(farm2.orgId);
    expect(farm1.blocId).not.toBeNull();
    expect(farm2.blocId).toBe(farm1.blocId);
  });

  it('names each row’s farm on a list that spans farms: the service provider sees two farms’ rows, each with its farm', async () => {
    const token = await t.login('provider');
    const mixed: string[] = [];
    for (const doc of docs.filter((d) => d.scope === 'farm')) {
      const page = await call(t, token, 'GET', `${doc.basePath}/page?pageSize=100`);
      if (page.status !== 200) continue;
      const rows = (page.data as { rows: { farmName?: unknown }[] }).rows;
      for (const r of rows) expect(typeof r.farmName === 'string' && r.farmName !== '', `${doc.name} row farmName`).toBe(true);
      if (new Set(rows.map((r) => r.farmName)).size > 1) mixed.push(doc.name);
    }
    expect(mixed.length).toBeGreaterThan(0);
  });

  it('gives every demo account exactly the access its menu and element codes grant, on every resource', async () => {
    const { rows } = await t.db.query<{ id: number; username: string }>(`SELECT id, username FROM users WHERE username NOT LIKE 'rt\\_%' ORDER BY id`);
    expect(rows.length).toBeGreaterThan(5);
    for (const u of rows) {
      const session = (await loadSessionUser(t.db, { id: u.id }))!;
      const token = await t.app.tokens.issue(u);
      for (const doc of docs) {
        const canRead = readKeys(doc).some((m) => session.menus.has(m));
        const canCreate = accessKeys(doc, 'create').some((k) => session.menus.has(k.menu) && session.elements.has(k.element));
        const page = await call(t, token, 'GET', `${doc.basePath}/page`);
        expect(page.status, `${u.username} reads ${doc.name}`).toBe(canRead ? 200 : 40301);
        // A list of farm-owned rows says when it spans farms, so that the table names each row's farm.
        if (canRead && doc.scope === 'farm') {
          expect((page.data as { spansFarms?: boolean }).spansFarms ?? false, `${u.username} ${doc.name} spansFarms`).toBe(READS_MANY_FARMS.has(u.username));
        }
        // An empty body: 40001 for who may create (validation), 40301 for who may not (before validation).
        const create = await call(t, token, 'POST', doc.basePath, {});
        expect(create.status, `${u.username} creates ${doc.name}`).toBe(canCreate ? 40001 : 40301);
      }
    }
  });

  /**
   * Creates a generated record; a 40001 is a business rule of the resource's module (a task
   * only from its group's own plan, say) that a record copied across farms cannot meet:
   * declared in EXPECTED_REFUSALS, or the test fails.
   */
  const createOrSkip = async (token: string, doc: ResourceDocument, body: Body, refused: Refused): Promise<Reply> => {
    const r = await call(t, token, 'POST', doc.basePath, body);
    if (r.status === 40001) refused(r);
    return r;
  };

  describe.each(byName(docs))('%s', (_name, doc) => {
    const base = doc.basePath;

    it('refuses readers without the authority and writers without the element code (40301)', async () => {
      const seed = await someRow(t, admin, doc);
      const body = variant(doc, seed, '无权', { dropOptionalRefs: true });
      for (const [method, url, payload] of [
        ['GET', `${base}/page`, undefined],
        ['GET', `${base}/${seed.id}`, undefined],
        ['POST', base, body],
        ['PUT', `${base}/${seed.id}`, { ...body, version: seed.version }],
        ['DELETE', `${base}/${seed.id}`, undefined],
        ['DELETE', `${base}/batch`, { ids: [seed.id] }],
      ] as const) {
        const r = await call(t, nobody, method, url, payload);
        expect([r.http, r.status], `nobody ${method} ${url}`).toEqual([403, 40301]);
        if (method !== 'GET') {
          const w = await call(t, reader, method, url, payload);
          expect([w.http, w.status], `reader ${method} ${url}`).toEqual([403, 40301]);
        }
      }
      expect((await call(t, reader, 'GET', `${base}/page`)).status).toBe(200);

      // Another resource's element codes do not open this one (codes it shares, as the
      // planting resources under one menu do, are this one's too and left out).
      const mine = new Set((['create', 'update', 'delete'] as const).flatMap((a) => accessKeys(doc, a).map((k) => k.element)));
      const others = docs.filter((d) => d !== doc).flatMap((d) => (['create', 'update', 'delete'] as const).map((a) => d.elements[a])).filter((c) => !mine.has(c));
      const wrong = (await makeUser(t, { orgId: farm1.orgId, menus: authorityKeys(doc), elements: others })).token;
      expect((await call(t, wrong, 'POST', base, body)).status).toBe(40301);
      const after = await call(t, admin, 'GET', `${base}/${seed.id}`);
      expect(after.data).toEqual(seed);
    });

    it('accepts the codes of every menu entry that shows the resource', async (ctx) => {
      const refused = declaredRefusals(ctx, doc, 'menuCodes');
      for (const menu of authorityKeys(doc)) {
        const keys = (['create', 'update', 'delete'] as const).map((a) => accessKeys(doc, a).find((k) => k.menu === menu)!.element);
        const user = await makeUser(t, { orgId: farm1.orgId, menus: [menu], elements: keys });
        const seed = await someRow(t, user.token, doc);
        const made = await writeOrSkip(t, user.token, doc, 'POST', base, variant(doc, seed, `经由-${menu}`), refused, { codesHeld: true });
        expect(made.status, `${menu}: ${made.raw.body}`).toBe(200);
        expect((await call(t, user.token, 'DELETE', `${base}/${made.data.id}`)).status).toBe(200);
      }
    });

    if (doc.scope === 'farm') {
      it('keeps each farm to its own records: another farm\'s id behaves exactly like a missing one', async () => {
        const seed = await someRow(t, w1, doc);
        const mine = await call(t, w1, 'POST', base, variant(doc, seed, '一号农场记录'));
        expect(mine.data.farmId).toBe(farm1.orgId);
        const id = mine.data.id as number;
        const body = { ...variant(doc, seed, '越权修改', { dropOptionalRefs: true }), version: 1 };

        for (const other of [w2, w3]) {
          for (const [method, url, payload, missingUrl, missingPayload] of [
            ['GET', `${base}/${id}`, undefined, `${base}/${MISSING}`, undefined],
            ['PUT', `${base}/${id}`, body, `${base}/${MISSING}`, body],
            ['DELETE', `${base}/${id}`, undefined, `${base}/${MISSING}`, undefined],
            ['DELETE', `${base}/batch`, { ids: [id] }, `${base}/batch`, { ids: [MISSING] }],
          ] as const) {
            const foreign = await call(t, other, method, url, payload);
            const missing = await call(t, other, method, missingUrl, missingPayload);
            expect(same(foreign), `${method} ${url}`).toEqual(same(missing));
            expect(foreign.status).toBe(40401);
          }
          const page = await call(t, other, 'GET', `${base}/page?pageSize=500`);
          expect(page.status).toBe(200);
          expect(page.data.rows.map((r: Body) => r.id)).not.toContain(id);
        }
        const w2Page = await call(t, w2, 'GET', `${base}/page?pageSize=500`);
        for (const row of w2Page.data.rows) expect(row.farmId).toBe(farm2.orgId);

        // Still intact, version 1, for its own farm.
        const own = await call(t, w1, 'GET', `${base}/${id}`);
        expect([own.status, own.data.version, own.data[doc.displayField]]).toEqual([200, 1, '一号农场记录']);
      });

      it('lets a farm user create only in its own farm', async () => {
        const seed = await someRow(t, w1, doc);
        const body = variant(doc, seed, '指定农场', { dropOptionalRefs: true });
        const elsewhere = await call(t, w1, 'POST', base, { ...body, farmId: farm2.orgId });
        const nowhere = await call(t, w1, 'POST', base, { ...body, farmId: MISSING });
        expect([elsewhere.http, elsewhere.status]).toEqual([400, 40001]);
        expect(same(elsewhere)).toEqual(same(nowhere));
        expect(elsewhere.data.errors[0].field).toBe('farmId');
        const own = await call(t, w1, 'POST', base, { ...body, farmId: farm1.orgId });
        expect([own.status, own.data.farmId]).toEqual([200, farm1.orgId]);
      });

      it('lets a service provider see and change the farms of its bloc only, naming the farm on creation', async (ctx) => {
        const seed = await someRow(t, w1, doc);
        const skip = declaredRefusals(ctx, doc, 'otherFarm');
        const inBloc = await createOrSkip(w1, doc, variant(doc, seed, '集团内记录'), skip);
        // A generated record of another farm may break a business rule (a plan item of a plan of its own farm): skipped with the reason.
        const outside = await createOrSkip(w3, doc, variant(doc, seed, '集团外记录', { dropOptionalRefs: true }), skip);
        expect([inBloc.status, outside.status]).toEqual([200, 200]);

        const page = await call(t, provider, 'GET', `${base}/page?pageSize=500`);
        const ids = page.data.rows.map((r: Body) => r.id);
        expect(ids).toContain(inBloc.data.id);
        expect(ids).not.toContain(outside.data.id);
        for (const row of page.data.rows) expect([farm1.orgId, farm2.orgId]).toContain(row.farmId);
        expect(same(await call(t, provider, 'GET', `${base}/${outside.data.id}`))).toEqual(same(await call(t, provider, 'GET', `${base}/${MISSING}`)));

        const edited = await call(t, provider, 'PUT', `${base}/${inBloc.data.id}`, { ...recordOf(doc, inBloc.data), version: 1 });
        expect([edited.status, edited.data.version]).toEqual([200, 2]);

        const body = variant(doc, seed, '服务商新建', { dropOptionalRefs: true });
        const unnamed = await call(t, provider, 'POST', base, body);
        expect([unnamed.status, unnamed.data.errors[0].field]).toEqual([40001, 'farmId']);
        const foreign = await call(t, provider, 'POST', base, { ...body, farmId: farm3 });
        expect([foreign.status, foreign.data.errors[0].field]).toEqual([40001, 'farmId']);
        expect(same(foreign)).toEqual(same(await call(t, provider, 'POST', base, { ...body, farmId: MISSING })));
        const named = await call(t, provider, 'POST', base, { ...body, farmId: farm2.orgId });
        expect([named.status, named.data.farmId, named.data.blocId]).toEqual([200, farm2.orgId, farm2.blocId]);
      });

      it('lets platform administrators reach every farm, naming the farm on creation', async (ctx) => {
        const skip = declaredRefusals(ctx, doc, 'otherFarm');
        const seed = await someRow(t, w3, doc).catch(async () => {
          const s = await someRow(t, w1, doc);
          return (await createOrSkip(w3, doc, variant(doc, s, '外部种子', { dropOptionalRefs: true }), skip)).data;
        });
        expect((await call(t, admin, 'GET', `${base}/${seed.id}`)).status).toBe(200);
        const body = variant(doc, seed, '管理员新建', { dropOptionalRefs: true });
        const unnamed = await call(t, admin, 'POST', base, body);
        expect([unnamed.status, unnamed.data.errors[0].field]).toEqual([40001, 'farmId']);
        const named = await createOrSkip(admin, doc, { ...body, farmId: farm3 }, skip);
        expect([named.status, named.data.farmId]).toEqual([200, farm3]);
        expect((await call(t, w3, 'GET', `${base}/${named.data.id}`)).status).toBe(200);
      });

      // Every reference the engine checks: the document's own and those a business module
      // declares on it (a quality record's harvest batch). Another farm's record answers
      // exactly as a missing one, for the farm itself and for a provider or an administrator
      // writing for it (who may write for farm 1 too).
      for (const [field, target] of farmReferences(doc)) {
        it(`refuses a reference (${field}) to another farm's ${target.name}`, async () => {
          const theirs = await recordOfFarm(t.db, target, farm1.orgId);
          const seed = await someRow(t, w2, doc);
          const body = variant(doc, seed, '跨农场引用');
          const before = await countOf(t.db, doc);
          for (const [token, extra] of [[w2, {}], [provider, { farmId: farm2.orgId }], [admin, { farmId: farm2.orgId }]] as const) {
            const foreign = await call(t, token, 'POST', base, { ...body, ...extra, [field]: theirs });
            const missing = await call(t, token, 'POST', base, { ...body, ...extra, [field]: MISSING });
            expect([foreign.status, foreign.data.errors.map((e: { field: string }) => e.field)]).toEqual([40001, [field]]);
            expect(same(foreign)).toEqual(same(missing));
          }
          const mine = await call(t, w2, 'POST', base, body);
          if (mine.status === 200) {
            const changed = await call(t, w2, 'PUT', `${base}/${mine.data.id}`, { ...recordOf(doc, mine.data), version: 1, [field]: theirs });
            expect([changed.status, changed.data.errors.map((e: { field: string }) => e.field)]).toEqual([40001, [field]]);
            expect((await call(t, w2, 'GET', `${base}/${mine.data.id}`)).data.version).toBe(1);
            await call(t, w2, 'DELETE', `${base}/${mine.data.id}`);
          }
          expect(await countOf(t.db, doc)).toBe(before);
        });
      }
    } else {
      it('shares platform records with everyone holding the authority; writes need the element codes', async (ctx) => {
        const seed = await someRow(t, admin, doc);
        const made = await writeOrSkip(t, admin, doc, 'POST', base, { ...variant(doc, seed, '共享记录'), farmId: farm1.orgId }, declaredRefusals(ctx, doc, 'write'));
        expect([made.status, made.data.farmId]).toEqual([200, null]);
        for (const token of [w1, w2, w3, provider, reader]) {
          expect((await call(t, token, 'GET', `${base}/${made.data.id}`)).status).toBe(200);
        }
        const edited = await call(t, w2, 'PUT', `${base}/${made.data.id}`, { ...recordOf(doc, made.data), version: 1 });
        expect(edited.status).toBe(200);
        expect((await call(t, reader, 'DELETE', `${base}/${made.data.id}`)).status).toBe(40301);
        expect((await call(t, w3, 'DELETE', `${base}/${made.data.id}`)).status).toBe(200);
      });
    }
  });
});
