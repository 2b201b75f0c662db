/**
 * Table-backed storage of the resource engine (docs/resources.md, "Table-backed storage"):
 * a document naming a table of its own is served by the same store, page query, counts,
 * scope, version check, audit and hooks as a JSON-stored one.
 *
 * - below HTTP, a farm-scoped test table shared through a fixed `kind` value: full writes
 *   with a version, filters of every kind, sorting, scope, rows of another kind invisible;
 * - over HTTP, the seedling bases (schemas/resources/nurseries.json), rows of the
 *   organisations table that are each their own farm, with partial updates;
 * - at start, a table or column the database does not have stops the server, named.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { migrate } from '../../server/db/migrate.ts';
import { loadSessionUser, type SessionUser } from '../../server/auth/session-user.ts';
import { ApiError, Status } from '../../server/http/envelope.ts';
import { resourceEngine } from '../../server/resources/plugin.ts';
import { ResourceStore } from '../../server/resources/store.ts';
import { RESOURCES_DIR } from '../../server/resources/load.ts';
import { loadResourceDocuments, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { call, demoOrg, makeUser } from './resource-fixtures.ts';

const text = (s: string) => ({ zh: s, en: s, es: s });

/** A farm's seed beds, in a table shared with rows of another kind. */
const bedsDoc = {
  name: 'testBeds',
  formatVersion: 1,
  revision: 1,
  title: text('Beds'),
  basePath: '/api/test/beds',
  authority: 'testBeds',
  elements: { create: 'testBeds:add', update: 'testBeds:edit', delete: 'testBeds:delete' },
  scope: 'farm',
  record: {
    type: 'object',
    additionalProperties: false,
    required: ['label'],
    properties: {
      label: { type: 'string', maxLength: 40, 'x-title': text('Label') },
      area: { type: 'number', minimum: 0, maximum: 1000, 'x-title': text('Area') },
      heated: { type: 'boolean', 'x-title': text('Heated') },
      sownOn: { type: 'string', format: 'date', maxLength: 10, 'x-title': text('Sown on') },
      tags: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 10 }, 'x-title': text('Tags') },
    },
  },
  displayField: 'label',
  defaultSort: 'label',
  searchable: [
    { field: 'label', filter: 'like' },
    { field: 'heated', filter: 'eq' },
    { field: 'area', filter: 'range' },
    { field: 'sownOn', filter: 'range' },
    { field: 'find', filter: 'keyword', fields: ['label'] },
  ],
  sortable: ['label', 'area'],
  storage: {
    table: 'test_beds',
    columns: { label: 'label', area: 'area', heated: 'heated', sownOn: 'sown_on', tags: 'tags' },
    fixed: { kind: 'bed' },
    owner: { farmId: 'farm', blocId: 'bloc' },
  },
};

const BEDS_TABLE = `CREATE TABLE test_beds (
  id serial PRIMARY KEY, version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(),
  created_by integer, updated_by integer, farm integer REFERENCES organisations(id), bloc integer,
  kind text NOT NULL, label text NOT NULL, area numeric, heated boolean, sown_on date, tags jsonb)`;

function loadDoc(doc: unknown): ResourceDocument {
  return loadResourceDocuments([{ file: 'testBeds.json', text: JSON.stringify(doc) }])[0];
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('table-backed documents', () => {
  it('are checked on their own: every property needs a column, fixed values fit, no references', () => {
    const missing = structuredClone(bedsDoc) as typeof bedsDoc;
    delete (missing.storage.columns as Record<string, string>).tags;
    expect(() => loadDoc(missing)).toThrow(/testBeds\.json#\/storage\/columns has no column for the property "tags"/);
    const meta = structuredClone(bedsDoc);
    meta.storage.columns.label = 'version';
    expect(() => loadDoc(meta)).toThrow(/\/storage\/columns\/label "version" is one of the engine's meta columns/);
    const noOwner = structuredClone(bedsDoc) as { storage: { owner?: unknown } };
    delete noOwner.storage.owner;
    expect(() => loadDoc(noOwner)).toThrow(/\/storage\/owner\/farmId a farm-scoped resource needs the column of its farm/);
    const unfit = structuredClone(bedsDoc) as typeof bedsDoc;
    (unfit.storage.fixed as Record<string, unknown>) = { label: 7 };
    expect(() => loadDoc(unfit)).toThrow(/maps to the fixed column "label", so the property must accept 7/);
    expect(loadDoc(bedsDoc).storage?.table).toBe('test_beds');
  });

  it('stop the start when the database lacks their table or a column, naming both', async () => {
    const db = await openPglite();
    await migrate(db);
    const dir = mkdtempSync(join(tmpdir(), 'table-docs-'));
    writeFileSync(join(dir, 'testBeds.json'), JSON.stringify(bedsDoc));
    const start = async () => {
      const app = Fastify();
      app.decorate('db', db);
      app.register(resourceEngine, { dir });
      try {
        await app.ready();
      } finally {
        await app.close();
      }
    };
    await expect(start()).rejects.toThrow(/resource "testBeds": storage\.table "test_beds" is no table of the database/);
    await db.exec(BEDS_TABLE.replace('sown_on date', 'sown date'));
    await expect(start()).rejects.toThrow(/resource "testBeds": storage\.columns\.sownOn names column "sown_on", which table "test_beds" does not have/);
    await db.exec('ALTER TABLE test_beds RENAME COLUMN sown TO sown_on');
    await start();
    // The shipped seedling bases match the shipped migrations.
    const shipped = Fastify();
    shipped.decorate('db', db);
    shipped.register(resourceEngine, { dir: RESOURCES_DIR });
    await shipped.ready();
    expect(shipped.printRoutes()).toContain('nursery');
    await shipped.close();
    await db.close();
  });
});

describe.each(engines())('a farm table shared by kind on $name', (engine) => {
  let db: Database;
  let store: ResourceStore;
  let admin: SessionUser;
  let farmUser: SessionUser;
  let farm2User: SessionUser;
  const req = (user: SessionUser) => ({ lang: 'en', ip: '127.0.0.1', user }) as unknown as FastifyRequest;

  beforeAll(async () => {
    db = await engine.openSeeded();
    await db.exec(BEDS_TABLE);
    const doc = loadDoc(bedsDoc);
    store = new ResourceStore(doc, new Map([[doc.name, doc]]));
    admin = (await loadSessionUser(db, { username: 'admin' }))!;
    farmUser = (await loadSessionUser(db, { username: 'farm' }))!;
    farm2User = (await loadSessionUser(db, { username: 'farm2' }))!;
    // A row of another kind in the same farm: never this resource's.
    await db.query(`INSERT INTO test_beds(kind, label, farm) VALUES ('tray', 'A tray', $1)`, [farmUser.orgId]);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('creates, reads, pages, filters, sorts, updates with a version and deletes, audited, in its own table', async () => {
    const mk = (label: string, area: number, heated: boolean, sownOn: string) => store.create(db, req(farmUser), farmUser, { label, area, heated, sownOn, tags: ['early'] });
    const a = await mk('Bed A', 12.5, true, '2026-03-01');
    const b = await mk('Bed B', 40, false, '2026-04-15');
    const c = await mk('bed c', 3, true, '2026-05-20');
    expect(a).toMatchObject({ label: 'Bed A', area: 12.5, heated: true, sownOn: '2026-03-01', tags: ['early'], version: 1, farmId: farmUser.orgId, farmName: expect.any(String) });
    const stored = await db.query(`SELECT kind, label, farm, bloc, created_by, tags FROM test_beds WHERE id = $1`, [a.id]);
    expect(stored.rows[0]).toMatchObject({ kind: 'bed', label: 'Bed A', farm: farmUser.orgId, created_by: farmUser.id, tags: ['early'] });
    expect(await store.get(db, farmUser, a.id as number)).toMatchObject({ id: a.id, label: 'Bed A' });

    const labels = async (q: Record<string, unknown>) => (await store.page(db, farmUser, q)).rows.map((r) => r.label);
    expect(await labels({})).toEqual(['Bed A', 'Bed B', 'bed c']);
    expect((await store.page(db, farmUser, {})).total).toBe(3);
    expect(await labels({ sort: '-area' })).toEqual(['Bed B', 'Bed A', 'bed c']);
    expect(await labels({ label: 'BED' })).toEqual(['Bed A', 'Bed B', 'bed c']);
    expect(await labels({ find: 'd c' })).toEqual(['bed c']);
    expect(await labels({ heated: true, sort: 'area' })).toEqual(['bed c', 'Bed A']);
    expect(await labels({ areaFrom: 10, areaTo: 40 })).toEqual(['Bed A', 'Bed B']);
    expect(await labels({ sownOnFrom: '2026-04-01' })).toEqual(['Bed B', 'bed c']);
    const paged = await store.page(db, farmUser, { pageSize: 2, pageIndex: 2 });
    expect([paged.rows.map((r) => r.label), paged.total]).toEqual([['bed c'], 3]);

    const changed = await store.update(db, req(farmUser), farmUser, b.id as number, { label: 'Bed B2', area: 41, version: 1 });
    expect(changed).toMatchObject({ label: 'Bed B2', area: 41, version: 2 });
    // A full update: what was not sent is gone.
    expect(changed.heated).toBeUndefined();
    const stale = await refusal(store.update(db, req(farmUser), farmUser, b.id as number, { label: 'lost', version: 1 }));
    expect([stale.status, (await store.get(db, farmUser, b.id as number)).label]).toEqual([Status.BUSINESS, 'Bed B2']);

    await store.remove(db, req(farmUser), farmUser, [c.id as number]);
    expect(await labels({})).toEqual(['Bed A', 'Bed B2']);
    const log = await db.query<{ action: string; resource: string }>(`SELECT action, resource FROM operation_log WHERE resource = 'testBeds' AND record_id = $1 ORDER BY id`, [String(c.id)]);
    expect(log.rows.map((r) => r.action)).toEqual(['testBeds.create', 'testBeds.delete']);
    expect((await db.query(`SELECT 1 FROM test_beds WHERE kind = 'tray'`)).rows.length).toBe(1);
  });

  it('keeps each farm to its rows and the other kind out of reach', async () => {
    const mine = await store.create(db, req(farmUser), farmUser, { label: 'Mine' });
    expect((await store.page(db, farm2User, {})).rows).toEqual([]);
    expect((await refusal(store.get(db, farm2User, mine.id as number))).status).toBe(Status.NOT_FOUND);
    expect((await refusal(store.update(db, req(farm2User), farm2User, mine.id as number, { label: 'x', version: 1 }))).status).toBe(Status.NOT_FOUND);
    expect((await refusal(store.remove(db, req(farm2User), farm2User, [mine.id as number]))).status).toBe(Status.NOT_FOUND);
    const tray = (await db.query<{ id: number }>(`SELECT id FROM test_beds WHERE kind = 'tray'`)).rows[0].id;
    expect((await refusal(store.get(db, admin, tray))).status).toBe(Status.NOT_FOUND);
    expect((await refusal(store.remove(db, req(admin), admin, [tray]))).status).toBe(Status.NOT_FOUND);
    // The platform sees every farm's beds and names the farm of a new one.
    expect((await store.page(db, admin, {})).rows.map((r) => r.label)).toContain('Mine');
    const placed = await store.create(db, req(admin), admin, { label: 'Placed', farmId: farm2User.orgId });
    expect(placed.farmId).toBe(farm2User.orgId);
    expect((await store.page(db, farm2User, {})).rows.map((r) => r.label)).toEqual(['Placed']);
  });
});

describe.each(engines())('seedling bases from the organisations table on $name', (engine) => {
  let t: TestApp;
  let admin: string;
  let nursery: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin');
    nursery = await t.login('nursery');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows only organisations of type 4, with the reply shape of the former endpoint', async () => {
    const all = await call(t, admin, 'GET', '/api/admin/nursery/page?pageSize=100');
    expect(all.status).toBe(200);
    const types = await t.db.query<{ id: number }>('SELECT id FROM organisations WHERE type = 4 ORDER BY id');
    expect(all.data.rows.map((r: { id: number }) => r.id)).toEqual(types.rows.map((r) => r.id));
    expect(all.data.rows[0]).toEqual(
      expect.objectContaining({ id: expect.any(Number), name: expect.any(String), type: 4, status: 1, blocId: null, blocName: null, people: expect.any(Number), createdAt: expect.any(String), version: expect.any(Number) }),
    );
    const farm = (await t.db.query<{ id: number }>(`SELECT id FROM organisations WHERE type = 0 LIMIT 1`)).rows[0].id;
    expect((await call(t, admin, 'GET', `/api/admin/nursery/${farm}`)).status).toBe(40401);
    expect((await call(t, admin, 'PUT', `/api/admin/nursery/${farm}`, { city: 'x' })).status).toBe(40401);
    expect((await call(t, admin, 'DELETE', `/api/admin/nursery/${farm}`)).status).toBe(40401);
    expect((await t.db.query('SELECT 1 FROM organisations WHERE id = $1', [farm])).rows.length).toBe(1);
  });

  it('adds with the fixed type, filters by keyword and status, sorts, updates partially with an optional version, deletes', async () => {
    const add = async (name: string, city: string, status = 1) => (await call(t, admin, 'POST', '/api/admin/nursery', { name, city, status })).data;
    const x = await add('Ztest Alpha', '五常市');
    const y = await add('Ztest Beta', '尚志市', 0);
    expect(x).toMatchObject({ name: 'Ztest Alpha', type: 4, status: 1, people: 0, version: 1 });
    expect((await t.db.query('SELECT type, created_by FROM organisations WHERE id = $1', [x.id])).rows[0]).toEqual({ type: 4, created_by: expect.any(Number) });
    // The type is fixed: another value is refused on its field, nothing stored.
    const other = await call(t, admin, 'POST', '/api/admin/nursery', { name: 'Ztest Farm', type: 0 }, 'en');
    expect([other.status, other.data.errors[0].field]).toEqual([40001, 'type']);

    const names = async (q: string) => (await call(t, admin, 'GET', `/api/admin/nursery/page?${q}`)).data.rows.map((r: { name: string }) => r.name);
    expect(await names('keyword=ztest')).toEqual(['Ztest Alpha', 'Ztest Beta']);
    expect(await names(`keyword=${encodeURIComponent('尚志')}`)).toEqual(['Ztest Beta']);
    expect(await names('keyword=ztest&status=0')).toEqual(['Ztest Beta']);
    expect(await names('keyword=ztest&sort=-name')).toEqual(['Ztest Beta', 'Ztest Alpha']);
    expect((await call(t, admin, 'GET', '/api/admin/nursery/page?status=2')).status).toBe(40001);

    // Partial: only the sent fields change; a version sent must be the stored one.
    const upd = await call(t, admin, 'PUT', `/api/admin/nursery/${x.id}`, { contact: '赵刚' });
    expect(upd.data).toMatchObject({ name: 'Ztest Alpha', city: '五常市', contact: '赵刚', version: 2 });
    const stale = await call(t, admin, 'PUT', `/api/admin/nursery/${x.id}`, { contact: '钱伟', version: 1 }, 'en');
    expect([stale.status, stale.data.errors[0].field]).toEqual([40001, 'version']);
    expect((await call(t, admin, 'PUT', `/api/admin/nursery/${x.id}`, { contact: '钱伟', version: 2 })).data.version).toBe(3);
    const log = await t.db.query<{ action: string }>(`SELECT action FROM operation_log WHERE resource = 'organisations' AND record_id = $1 ORDER BY id`, [String(x.id)]);
    expect(log.rows.map((r) => r.action)).toEqual(['org.create', 'org.update', 'org.update']);

    // A legacy change of the organisation raises the version the engine checks.
    expect((await call(t, admin, 'PUT', '/api/farmManage/org/updateFarm', { id: x.id, address: '五常市 1 号' })).status).toBe(200);
    const stored = await call(t, admin, 'GET', `/api/admin/nursery/${x.id}`);
    expect(stored.data).toMatchObject({ address: '五常市 1 号', version: 4 });
    expect((await call(t, admin, 'PUT', `/api/admin/nursery/${x.id}`, { contact: '孙丽', version: 3 })).status).toBe(40001);

    expect((await call(t, admin, 'DELETE', `/api/admin/nursery/${y.id}`)).status).toBe(200);
    expect((await call(t, admin, 'DELETE', '/api/admin/nursery/batch', { ids: [x.id] })).data).toEqual({ deleted: 1 });
    expect((await t.db.query('SELECT 1 FROM organisations WHERE id = ANY($1::int[])', [[x.id, y.id]])).rows.length).toBe(0);
  });

  it('keeps a provider to the bases of its group, created there; a member to its own base', async () => {
    const { blocId } = await demoOrg(t.db, 'farm');
    const provider = await makeUser(t, { blocId, menus: ['nurseryManage', 'nurseryManageIndex'], elements: ['nurseryManageIndex:add', 'nurseryManageIndex:edit'] });
    const made = await call(t, provider.token, 'POST', '/api/admin/nursery', { name: 'Ztest Group Base' });
    expect(made.data).toMatchObject({ blocId, type: 4, blocName: expect.any(String) });
    const seen = await call(t, provider.token, 'GET', '/api/admin/nursery/page?pageSize=100');
    expect(seen.data.rows.map((r: { name: string }) => r.name)).toEqual(['Ztest Group Base']);
    // Another group cannot be named.
    const elsewhere = await call(t, provider.token, 'POST', '/api/admin/nursery', { name: 'Ztest Elsewhere', blocId: blocId! + 1000 });
    expect(elsewhere.status).toBe(40001);
    const own = await demoOrg(t.db, 'nursery');
    expect((await call(t, provider.token, 'GET', `/api/admin/nursery/${own.orgId}`)).status).toBe(40401);
    const mine = await call(t, nursery, 'GET', '/api/admin/nursery/page');
    expect(mine.data.rows.map((r: { id: number }) => r.id)).toEqual([own.orgId]);
    expect(mine.data.rows[0].people).toBeGreaterThan(0);
    expect((await call(t, nursery, 'GET', `/api/admin/nursery/${made.data.id}`)).status).toBe(40401);
  });
});

it('ships the seedling bases as a table-backed document', () => {
  const doc = JSON.parse(readFileSync(join(RESOURCES_DIR, 'nurseries.json'), 'utf8'));
  expect(doc.storage).toMatchObject({ table: 'organisations', fixed: { type: 4 }, owner: { farmId: 'id' } });
});
