/**
 * The regional center's region scope (auth/region-scope.ts, docs/resources.md "Scope"): the
 * demo center reads the records of the farms and the seedling base of its region on each of
 * its oversight screens' endpoints, never those of a farm outside it, and writes none of
 * them; farms, the provider and the platform keep their scopes; only a type-3 organisation
 * is a center, and only the platform sets it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { allCodes, call, demoOrg, makeUser, type Body } from './resource-fixtures.ts';

describe.each(engines())('region scope of the regional center on $name', (engine) => {
  let t: TestApp;
  let center: string, farm: string, farm2: string, nursery: string, admin: string, provider: string;
  let centerWriter: string;
  let ids: { center: number; farm: number; farm2: number; nursery: number; outside: number };
  const region = () => [ids.farm, ids.farm2, ids.nursery];
  const canOf = (row: Body) => (row._can ?? {}) as Record<string, boolean | undefined>;

  const ok = async (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const r = await call(t, token, method, url, body);
    expect(r.status, `${method} ${url}: ${r.raw.body}`).toBe(200);
    return r.data;
  };
  const farmIdsOf = (rows: Body[]) => [...new Set(rows.map((r) => Number(r.farmId)))].sort((a, b) => a - b);

  /** Copies a farm's record of `resource` to the outside farm (optionally changing fields): the record the center must never see. */
  const outsideCopy = async (resource: string, patch: Body = {}, where = 'TRUE'): Promise<number> => {
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, data)
       SELECT resource, $2, data || $3::jsonb FROM resource_records WHERE resource = $1 AND farm_id = $4 AND ${where} ORDER BY id LIMIT 1 RETURNING id`,
      [resource, ids.outside, JSON.stringify(patch), ids.farm],
    );
    expect(rows.length, resource).toBe(1);
    return Number(rows[0].id);
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    const bearer = async (u: string) => `Bearer ${await t.login(u)}`;
    [center, farm, farm2, nursery, admin, provider] = await Promise.all(['center', 'farm', 'farm2', 'nursery', 'admin', 'provider'].map(bearer));
    const org = async (u: string) => (await demoOrg(t.db, u)).orgId;
    ids = { center: await org('center'), farm: await org('farm'), farm2: await org('farm2'), nursery: await org('nursery'), outside: 0 };
    // A farm outside the region, made by the platform through the organisation call.
    ids.outside = (await ok(admin, 'POST', '/api/farmManage/org/addFarm', { name: '区域外测试农场', city: '长春市' })).id;
    // A member of the center holding every menu and element code: what stops its writes is the scope alone.
    centerWriter = (await makeUser(t, { orgId: ids.center, ...allCodes() })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seed puts both demo farms and the seedling base in the demo center’s region', async () => {
    const { rows } = await t.db.query<{ id: number }>('SELECT id FROM organisations WHERE center_id = $1 ORDER BY id', [ids.center]);
    expect(rows.map((r) => Number(r.id))).toEqual(region().sort((a, b) => a - b));
    expect((await t.db.query('SELECT center_id FROM organisations WHERE id = $1', [ids.outside])).rows[0].center_id).toBeNull();
  });

  it('the migration links the demo organisations of a database seeded before it', async () => {
    // The migration's own UPDATE, run again over the demo organisations without a center.
    const sql = readFileSync(new URL('../../server/db/migrations/135_region_scope.sql', import.meta.url), 'utf8');
    const update = sql.slice(sql.indexOf('UPDATE organisations'));
    await t.db.query('UPDATE organisations SET center_id = NULL WHERE center_id = $1', [ids.center]);
    await t.db.query(update);
    const { rows } = await t.db.query<{ id: number }>('SELECT id FROM organisations WHERE center_id = $1 ORDER BY id', [ids.center]);
    expect(rows.map((r) => Number(r.id))).toEqual(region().sort((a, b) => a - b));
  });

  it('the farm list (multiFarm) shows the region’s farms to the center, the bloc’s to the provider', async () => {
    const names = async (token: string) => ((await ok(token, 'GET', '/api/admin/multiFarm/page?pageSize=100')).rows as Body[]).map((r) => r.name).sort();
    expect(await names(center)).toEqual(['嫩江源合作农场', '禾丰生态农场'].sort());
    expect(await names(provider)).toEqual(['嫩江源合作农场', '禾丰生态农场'].sort());
    expect(await names(admin)).toContain('区域外测试农场');
    // One farm's planting groups: a region farm's are read, the outside farm is as missing.
    const groups = await ok(center, 'GET', `/api/admin/multiFarm/${ids.farm}/plantGroups`);
    expect(groups.total).toBeGreaterThan(0);
    expect(farmIdsOf(groups.rows)).toEqual([ids.farm]);
    expect((await call(t, center, 'GET', `/api/admin/multiFarm/${ids.outside}/plantGroups`)).status).toBe(40401);
    // Reading is not deleting: the center's delete of a region farm is refused.
    expect((await call(t, centerWriter, 'DELETE', `/api/farmManage/org/deleteFarm?id=${ids.farm2}`)).status).toBe(40401);
  });

  it('quality records: the center reads the region’s (page and one), never the outside farm’s; farms only their own', async () => {
    const outsideId = await outsideCopy('qualityRecords');
    const all = await ok(admin, 'GET', '/api/qualityandSafety/records/page?pageSize=500');
    const own = (farmId: number) => (all.rows as Body[]).filter((r) => r.farmId === farmId);
    const seen = await ok(center, 'GET', '/api/qualityandSafety/records/page?pageSize=500');
    const expected = region().reduce((n, id) => n + own(id).length, 0);
    expect(seen.total).toBe(expected);
    expect(own(ids.farm).length).toBeGreaterThan(0);
    expect(own(ids.farm2).length).toBeGreaterThan(0);
    expect(farmIdsOf(seen.rows).every((id) => region().includes(id))).toBe(true);
    expect((seen.rows as Body[]).some((r) => r.id === outsideId)).toBe(false);
    // Read, not written: no write is offered on a region farm's row (the console hides it).
    expect((seen.rows as Body[]).every((r) => canOf(r).edit === false && canOf(r).delete === false)).toBe(true);
    const farmRecord = own(ids.farm)[0];
    const one = await ok(center, 'GET', `/api/qualityandSafety/records/${farmRecord.id}`);
    expect(one.id).toBe(farmRecord.id);
    expect(one._can).toMatchObject({ edit: false, delete: false });
    expect((await call(t, center, 'GET', `/api/qualityandSafety/records/${outsideId}`)).status).toBe(40401);
    // farm and farm2 still never see each other's records.
    const f1 = await ok(farm, 'GET', '/api/qualityandSafety/records/page?pageSize=500');
    expect(farmIdsOf(f1.rows)).toEqual([ids.farm]);
    expect((f1.rows as Body[]).some((r) => canOf(r).edit === false)).toBe(false);
    expect((await call(t, farm, 'GET', `/api/qualityandSafety/records/${own(ids.farm2)[0].id}`)).status).toBe(40401);
    expect((await call(t, farm2, 'GET', `/api/qualityandSafety/records/${farmRecord.id}`)).status).toBe(40401);
    // The provider reads its bloc's farms as before: not the seedling base, not the outside farm.
    const byProvider = await ok(provider, 'GET', '/api/qualityandSafety/records/page?pageSize=500');
    expect(farmIdsOf(byProvider.rows)).toEqual([ids.farm, ids.farm2].sort((a, b) => a - b));
  });

  it('the center writes no record of a region farm: update, delete, create for it and transitions are refused, nothing changes', async () => {
    const { rows } = await t.db.query<{ id: number; version: number; data: Body }>(
      `SELECT id, version, data FROM resource_records WHERE resource = 'qualityRecords' AND farm_id = $1 ORDER BY id LIMIT 1`,
      [ids.farm],
    );
    const rec = rows[0];
    const before = JSON.stringify(rec);
    const body = { ...rec.data, version: rec.version };
    // The demo center has read-only grants (40301); a center member with every code is stopped by the scope (40401).
    expect((await call(t, center, 'PUT', `/api/qualityandSafety/records/${rec.id}`, body)).status).toBe(40301);
    expect((await call(t, centerWriter, 'PUT', `/api/qualityandSafety/records/${rec.id}`, body)).status).toBe(40401);
    expect((await call(t, centerWriter, 'DELETE', `/api/qualityandSafety/records/${rec.id}`)).status).toBe(40401);
    expect((await call(t, centerWriter, 'DELETE', '/api/qualityandSafety/records', { ids: [rec.id] })).status).toBe(40401);
    const create = await call(t, centerWriter, 'POST', '/api/qualityandSafety/records', { ...rec.data, farmId: ids.farm });
    expect(create.status).toBe(40001);
    expect((create.data as { errors: Body[] }).errors.map((e) => e.field)).toContain('farmId');
    const after = await t.db.query(`SELECT id, version, data FROM resource_records WHERE id = $1`, [rec.id]);
    expect(JSON.stringify(after.rows[0])).toBe(before);
    // A transition of a farm's record (a plan's submit): 40401 for the center.
    const plan = (await t.db.query<{ id: number; version: number }>(`SELECT id, version FROM resource_records WHERE resource = 'plantPlans' AND farm_id = $1 ORDER BY id LIMIT 1`, [ids.farm])).rows[0];
    expect((await call(t, centerWriter, 'POST', `/api/farmPlantGroup/plans/${plan.id}/transitions/submit`, { version: plan.version })).status).toBe(40401);
  });

  it('traces and consumers’ reviews: the center reads the region’s and answers none of them', async () => {
    const codes = async (token: string) => (await ok(token, 'GET', '/api/trackInfoManage/codes/page?pageSize=100')).rows as Body[];
    // The seedling base holds no trace-code screen; its codes are read from the database.
    const n = (await t.db.query<{ code: string }>('SELECT code FROM trace_codes WHERE farm_id = $1', [ids.nursery])).rows;
    const [c, f1, f2] = [await codes(center), await codes(farm), await codes(farm2)];
    expect(f1.length).toBeGreaterThan(0);
    expect(n.length).toBeGreaterThan(0);
    expect(c.map((r) => r.code).sort()).toEqual([...f1, ...f2, ...n].map((r) => r.code).sort());
    expect(farmIdsOf(f1)).toEqual([ids.farm]);

    const reviews = async (token: string) => (await ok(token, 'GET', '/api/commentSuggestion/page?pageSize=100')).rows as Body[];
    const [rc, r1, r2] = [await reviews(center), await reviews(farm), await reviews(farm2)];
    expect(r1.length).toBeGreaterThan(0);
    expect(rc.map((r) => r.id).sort()).toEqual([...r1, ...r2].map((r) => r.id).sort());
    // The rows tell the console who may answer: the farm its own, the center none of the farms'.
    expect(r1.every((r) => (r._can as Body).edit === true)).toBe(true);
    expect(rc.every((r) => (r._can as Body).edit === false)).toBe(true);
    const open = rc.find((r) => r.answer === null) ?? rc[0];
    expect((await call(t, center, 'POST', `/api/commentSuggestion/${open.id}/answer`, { answer: '中心的回复' })).status).toBe(40401);
    const stored = await t.db.query<{ answer: string | null }>('SELECT answer FROM trace_reviews WHERE id = $1', [open.id]);
    expect(stored.rows[0].answer).toBe(open.answer);
  });

  it('environment readings and field reports: the region’s devices, alarms and reports', async () => {
    const units = await ok(center, 'GET', '/api/devices/units');
    const devices = (units.units as Body[]).flatMap((u) => (u.devices as Body[] | undefined) ?? []);
    const farmDevices = (await ok(farm, 'GET', '/api/devices/units')).units as Body[];
    expect(farmDevices.length).toBeGreaterThan(0);
    const centerFarms = new Set(devices.map((d) => Number(d.farmId)));
    expect(centerFarms.has(ids.farm)).toBe(true);
    expect([...centerFarms].every((id) => region().includes(id))).toBe(true);
    const alarms = async (token: string) => (await ok(token, 'GET', '/api/devices/alarms/page?pageSize=500')).total as number;
    expect(await alarms(center)).toBe((await alarms(farm)) + (await alarms(farm2)) + (await alarms(nursery)));
    const insectOutside = await outsideCopy('insectReports');
    const insect = async (token: string) => (await ok(token, 'GET', '/api/weatherAndSituation/insect/page?pageSize=500')) as { total: number; rows: Body[] };
    const seen = await insect(center);
    expect(seen.total).toBeGreaterThan(0);
    expect(seen.total).toBe((await insect(farm)).total + (await insect(farm2)).total + (await insect(nursery)).total);
    expect(seen.rows.some((r) => r.id === insectOutside)).toBe(false);
    // A reading's command is a write: refused on a region farm's device.
    const device = devices.find((d) => Number(d.farmId) === ids.farm);
    if (device) expect((await call(t, centerWriter, 'POST', '/api/devices/commands', { deviceId: device.id, action: 'on' })).status).not.toBe(200);
  });

  it('home figures add up the region’s farms', async () => {
    const overview = async (token: string) => ok(token, 'GET', '/api/farmMain/overview');
    const [c, f1, f2, n] = [await overview(center), await overview(farm), await overview(farm2), await overview(nursery)];
    expect(f1.openGroups).toBeGreaterThan(0);
    expect(c.openGroups).toBe(f1.openGroups + f2.openGroups + n.openGroups);
    expect(c.harvestBatches).toBe(f1.harvestBatches + f2.harvestBatches + n.harvestBatches);
    const devices = async (token: string) => (await ok(token, 'GET', '/api/farmMain/devices')).devices as number;
    expect(await devices(center)).toBe((await devices(farm)) + (await devices(farm2)) + (await devices(nursery)));
    expect(await devices(farm)).toBeGreaterThan(0);
    const map = await ok(center, 'GET', '/api/land/map');
    expect(JSON.stringify(map)).toContain('禾丰生态农场');
  });

  it('plan review: the center sees and judges only its region’s submissions; the platform sees every farm’s', async () => {
    const outsidePlan = await outsideCopy('plantPlans', { reviewStatus: 'submitted' }, `data->>'reviewStatus' = 'submitted'`);
    const ids_ = async (token: string) => ((await ok(token, 'GET', '/api/examineFactory/plans/page?pageSize=500')).rows as Body[]).map((r) => r.id as number);
    const byCenter = await ids_(center);
    expect(byCenter.length).toBeGreaterThan(0);
    expect(byCenter).not.toContain(outsidePlan);
    expect(await ids_(admin)).toContain(outsidePlan);
    const farms = await t.db.query<{ farm_id: number }>(`SELECT DISTINCT farm_id FROM resource_records WHERE id = ANY($1::bigint[])`, [byCenter]);
    expect(farms.rows.every((r) => region().includes(Number(r.farm_id)))).toBe(true);
    expect((await call(t, center, 'GET', `/api/examineFactory/plans/${outsidePlan}`)).status).toBe(40401);
    expect((await call(t, center, 'GET', `/api/examineFactory/plans/${outsidePlan}/items`)).status).toBe(40401);
    expect((await call(t, center, 'POST', `/api/examineFactory/plans/${outsidePlan}/transitions/approve`, { version: 1 })).status).toBe(40401);
    expect((await call(t, center, 'GET', `/api/examineFactory/plans/${byCenter[0]}`)).status).toBe(200);
  });

  it('a farm leaving the region leaves the center’s reads at once', async () => {
    await t.db.query('UPDATE organisations SET center_id = NULL WHERE id = $1', [ids.farm2]);
    try {
      const codes = (await ok(center, 'GET', '/api/trackInfoManage/codes/page?pageSize=100')).rows as Body[];
      expect(farmIdsOf(codes)).toEqual([ids.farm, ids.nursery].sort((a, b) => a - b));
      const farms = ((await ok(center, 'GET', '/api/admin/multiFarm/page')).rows as Body[]).map((r) => r.id);
      expect(farms).toEqual([ids.farm]);
      const quality = await ok(center, 'GET', '/api/qualityandSafety/records/page?pageSize=500');
      expect(farmIdsOf(quality.rows)).not.toContain(ids.farm2);
    } finally {
      await t.db.query('UPDATE organisations SET center_id = $2 WHERE id = $1', [ids.farm2, ids.center]);
    }
  });

  it('only a type-3 organisation is a center, and only the platform sets it (organisation calls and seedling bases)', async () => {
    const bad = await call(t, admin, 'PUT', '/api/farmManage/org/updateFarm', { id: ids.outside, centerId: ids.farm }, 'en');
    expect(bad.status).toBe(40001);
    expect((bad.data as { errors: Body[] }).errors).toEqual([{ field: 'centerId', message: 'The chosen regional management center does not exist or is not a regional management center' }]);
    const badEs = await call(t, admin, 'POST', '/api/farmManage/org/addFarm', { name: '另一农场', centerId: 2147483000 }, 'es');
    expect(badEs.status).toBe(40001);
    expect((badEs.data as { errors: Body[] }).errors[0]).toEqual({ field: 'centerId', message: 'El centro de gestión regional elegido no existe o no es un centro de gestión regional' });
    expect((await t.db.query(`SELECT 1 FROM organisations WHERE name = '另一农场'`)).rows).toEqual([]);
    // The platform moves the outside farm into the region: the center reads it from then on.
    const moved = await ok(admin, 'PUT', '/api/farmManage/org/updateFarm', { id: ids.outside, centerId: ids.center });
    expect(moved.centerId).toBe(ids.center);
    expect(((await ok(center, 'GET', '/api/admin/multiFarm/page')).rows as Body[]).map((r) => r.id)).toContain(ids.outside);
    // A farm cannot take itself out of (or into) a region.
    expect((await call(t, farm, 'POST', '/api/admin/user/updateFarmInfo', { centerId: null })).status).toBe(40301);
    expect((await t.db.query('SELECT center_id FROM organisations WHERE id = $1', [ids.farm])).rows[0].center_id).toBe(ids.center);
    // Seedling bases (the resource engine over the organisations table).
    const base = await ok(admin, 'GET', `/api/admin/nursery/${ids.nursery}`);
    expect(base.centerId).toBe(ids.center);
    const refused = await call(t, admin, 'PUT', `/api/admin/nursery/${ids.nursery}`, { centerId: ids.farm, version: base.version }, 'zh');
    expect(refused.status).toBe(40001);
    expect((refused.data as { errors: Body[] }).errors).toEqual([{ field: 'centerId', message: '所选区域管理中心不存在或不是区域管理中心' }]);
    expect((await call(t, nursery, 'PUT', `/api/admin/nursery/${ids.nursery}`, { centerId: ids.outside, version: base.version })).status).toBe(40301);
    expect((await ok(admin, 'GET', `/api/admin/nursery/${ids.nursery}`)).version).toBe(base.version);
    // The centers' options of the forms' select.
    expect(await ok(admin, 'GET', '/api/admin/organisations/centers')).toEqual([{ value: ids.center, label: '松嫩平原区域管理中心' }]);
  });
});
