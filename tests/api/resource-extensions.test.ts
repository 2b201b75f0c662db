/**
 * The resource engine's extension points below HTTP, on every engine: hooks run inside
 * the write's transaction (a refusal, even after the write, leaves nothing behind, the
 * hook's own writes included), see what they are documented to see, and may change the
 * record; an extension naming no resource stops the start; a transition on a farm's
 * record outside the caller's scope is not found.
 */
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import type { Database } from '../../server/db/database.ts';
import { loadSessionUser, type SessionUser } from '../../server/auth/session-user.ts';
import { ApiError, business, Status } from '../../server/http/envelope.ts';
import { ResourceHookChain, type ResourceHooks } from '../../server/resources/extensions.ts';
import { resourceEngine } from '../../server/resources/plugin.ts';
import { ResourceStore } from '../../server/resources/store.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { migrate } from '../../server/db/migrate.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { docs, fingerprint, outsideFarm, recordOf, variant } from './resource-fixtures.ts';

const byName = new Map(docs.map((d) => [d.name, d]));
const crops = byName.get('crops')!;

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('extension start-up', () => {
  it('is the named plugin resource-engine, and refuses to start when an extension names no resource document, naming it', async () => {
    const db = await openPglite();
    await migrate(db);
    const good = Fastify();
    good.decorate('db', db);
    good.register(resourceEngine, { extensions: [{ resource: 'crops', hooks: {} }] });
    await good.ready();
    expect(good.hasPlugin('resource-engine')).toBe(true);
    await good.close();
    const bad = Fastify();
    bad.decorate('db', db);
    bad.register(resourceEngine, { extensions: [{ resource: 'crops', hooks: {} }, { resource: 'cropz', hooks: {} }] });
    await expect(bad.ready()).rejects.toThrow(/resource extension names "cropz", which is no resource document; known: .*crops/);
    await bad.close();
    await db.close();
  });
});

describe.each(engines())('hooks in the write transaction on $name', (engine) => {
  let db: Database;
  let admin: SessionUser;
  let req: FastifyRequest;
  const seen: string[] = [];
  /** The hook to refuse in, when set. */
  let refuseIn: keyof ResourceHooks | null = null;

  const refuseHere = async (name: keyof ResourceHooks, tx: { query: Database['query'] }) => {
    seen.push(name);
    // A write of the hook itself, which a later refusal must undo too.
    await tx.query(`INSERT INTO operation_log(action, resource) VALUES ($1, 'crops')`, [`hook.${name}`]);
    if (refuseIn === name) throw business('resource.invalid', { detail: name });
  };
  const hooks: ResourceHooks = {
    async beforeCreate(ctx) {
      await refuseHere('beforeCreate', ctx.tx);
      ctx.data.latinName = 'Hook-set latinName';
    },
    async afterCreate(ctx) {
      expect(ctx.id).toBeGreaterThan(0);
      const { rows } = await ctx.tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE id = $1`, [ctx.id]);
      expect(rows[0].n).toBe(1);
      await refuseHere('afterCreate', ctx.tx);
    },
    async beforeUpdate(ctx) {
      expect(ctx.current.name).not.toBe(ctx.data.name);
      await refuseHere('beforeUpdate', ctx.tx);
    },
    afterUpdate: async (ctx) => refuseHere('afterUpdate', ctx.tx),
    async beforeDelete(ctx) {
      expect([...ctx.current.keys()]).toEqual(ctx.ids);
      await refuseHere('beforeDelete', ctx.tx);
    },
    afterDelete: async (ctx) => refuseHere('afterDelete', ctx.tx),
  };
  let store: ResourceStore;
  let sample: Record<string, unknown>;

  beforeAll(async () => {
    db = await engine.openSeeded();
    admin = (await loadSessionUser(db, { username: 'admin' }))!;
    req = { lang: 'en', ip: '127.0.0.1', user: admin } as unknown as FastifyRequest;
    store = new ResourceStore(crops, byName, new ResourceHookChain([hooks]));
    sample = (await store.page(db, admin, { pageSize: 1 })).rows[0];
  });
  afterAll(async () => {
    await db?.close();
  });

  it('creates with the record a before-hook changed, after-hook seeing the row; a refusal in either stores nothing', async () => {
    for (const where of ['beforeCreate', 'afterCreate'] as const) {
      refuseIn = where;
      const before = await fingerprint(db);
      const err = await refusal(store.create(db, req, admin, variant(crops, sample, `拒绝${where}`)));
      expect(err.status).toBe(Status.BUSINESS);
      expect(await fingerprint(db)).toBe(before);
    }
    refuseIn = null;
    seen.length = 0;
    const made = await store.create(db, req, admin, variant(crops, sample, '钩子新建'));
    expect(made.latinName).toBe('Hook-set latinName');
    expect(seen).toEqual(['beforeCreate', 'afterCreate']);
  });

  it('rolls an update back when a hook refuses, even after the row was written', async () => {
    const made = await store.create(db, req, admin, variant(crops, sample, '钩子更新'));
    for (const where of ['beforeUpdate', 'afterUpdate'] as const) {
      refuseIn = where;
      const before = await fingerprint(db);
      await refusal(store.update(db, req, admin, made.id as number, { ...recordOf(crops, made), name: `改名${where}`, version: made.version }));
      expect(await fingerprint(db)).toBe(before);
    }
    refuseIn = null;
    seen.length = 0;
    const updated = await store.update(db, req, admin, made.id as number, { ...recordOf(crops, made), name: '钩子改名', version: made.version });
    expect(updated.name).toBe('钩子改名');
    expect(seen).toEqual(['beforeUpdate', 'afterUpdate']);
  });

  it('rolls a delete back when a hook refuses', async () => {
    const made = await store.create(db, req, admin, variant(crops, sample, '钩子删除'));
    for (const where of ['beforeDelete', 'afterDelete'] as const) {
      refuseIn = where;
      const before = await fingerprint(db);
      await refusal(store.remove(db, req, admin, [made.id as number]));
      expect(await fingerprint(db)).toBe(before);
    }
    refuseIn = null;
    seen.length = 0;
    expect(await store.remove(db, req, admin, [made.id as number])).toEqual({ deleted: 1 });
    expect(seen).toEqual(['beforeDelete', 'afterDelete']);
  });

  it('does not run hooks for a write the engine refuses first (out of scope)', async () => {
    seen.length = 0;
    await refusal(store.update(db, req, admin, 999999, { ...recordOf(crops, sample), version: 1 }));
    expect(seen).toEqual([]);
  });

  it('answers 40401 for a transition of a farm’s record outside the caller’s scope, and runs its hooks in the transaction', async () => {
    const fields = byName.get('farmFields')!;
    const machine: ResourceDocument = {
      ...fields,
      states: { field: 'status', initial: 1, values: [{ value: 0, title: { zh: '休耕', en: 'Fallow', es: 'Barbecho' } }, { value: 1, title: { zh: '在用', en: 'In use', es: 'En uso' } }] },
      transitions: { rest: { from: [1], to: 0, element: 'update', title: { zh: '休耕', en: 'Rest', es: 'Descansar' } } },
    };
    const seenHere: string[] = [];
    const farmStore = new ResourceStore(machine, byName, new ResourceHookChain([{ afterTransition: async (ctx) => void seenHere.push(`${ctx.transition}:${ctx.from}->${ctx.to}`) }]));
    const farmer = (await loadSessionUser(db, { username: 'farm' }))!;
    const farmReq = { lang: 'en', ip: '127.0.0.1', user: farmer } as unknown as FastifyRequest;
    const own = (await farmStore.page(db, farmer, { pageSize: 1 })).rows[0];
    const elsewhere = await outsideFarm(db);
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, data) VALUES ('farmFields', $1, $2) RETURNING id`,
      [elsewhere, JSON.stringify({ ...recordOf(fields, own), status: 1 })],
    );
    const before = await fingerprint(db);
    const err = await refusal(farmStore.transition(db, farmReq, farmer, Number(rows[0].id), 'rest', { version: 1 }));
    expect(err.status).toBe(Status.NOT_FOUND);
    expect(await fingerprint(db)).toBe(before);
    expect(seenHere).toEqual([]);
    // The admin sees every farm: the same record moves.
    const moved = await farmStore.transition(db, req, admin, Number(rows[0].id), 'rest', { version: 1 });
    expect([moved.status, moved.version]).toEqual([0, 2]);
    expect(seenHere).toEqual(['rest:1->0']);
  });
});
