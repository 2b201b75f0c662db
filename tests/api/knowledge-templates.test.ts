/**
 * The planting knowledge base through the API (docs/planting.md, "Knowledge base and
 * templates"): platform libraries written by the platform and read by farms; a farm's own
 * planting templates invisible to other farms; line items validated on the right row
 * field; copying a system template into a farm, audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, fingerprint } from './resource-fixtures.ts';

describe.each(engines())('knowledge base and templates on $name', (engine) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(engine);
    for (const u of ['admin', 'farm', 'farm2', 'nursery', 'center']) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = async (who: string, url: string) => {
    const r = await call(t, tokens[who], 'GET', url);
    expect(r.status, r.message).toBe(200);
    return r.data.rows as Record<string, any>[];
  };

  it('seeds categories, 12+ farm-work types, standards and system templates of every kind', async () => {
    expect((await page('admin', '/api/kms/cropCategories/page?pageSize=50')).map((r) => r.name)).toEqual(expect.arrayContaining(['粮食作物', '蔬菜', '果树', '经济作物']));
    expect((await page('admin', '/api/kms/farmWorkTypes/page?pageSize=50')).length).toBeGreaterThanOrEqual(12);
    expect((await page('admin', '/api/kms/productionStandards/page')).length).toBeGreaterThanOrEqual(3);
    const systems = await page('admin', '/api/kms/systemTemplates/page?pageSize=50');
    expect(new Set(systems.map((r) => r.kind))).toEqual(new Set(['growthCycle', 'keyNodes', 'seasonWork', 'pattern']));
    const tomato = systems.find((r) => r.kind === 'seasonWork' && r.labels.cropId === '番茄')!;
    expect(tomato.workItems.length).toBeGreaterThanOrEqual(20);
    expect(tomato.workItems.filter((w: any) => w.materials?.length).length).toBeGreaterThanOrEqual(10);
  });

  it('tells a caller without a farm that the copy is not theirs to make (_can.add false), and a farm nothing', async () => {
    // The administrator holds every element code but belongs to no farm: the copy would be refused for want of one.
    for (const row of await page('admin', '/api/kms/systemTemplates/page?pageSize=50')) expect(row._can).toEqual({ add: false });
    for (const row of await page('farm', '/api/kms/systemTemplates/page?pageSize=50')) expect(row._can).toBeUndefined();
    const one = (await page('admin', '/api/kms/systemTemplates/page?pageSize=1'))[0];
    expect((await call(t, tokens.admin, 'GET', `/api/kms/systemTemplates/${one.id}`)).data._can).toEqual({ add: false });
  });

  it('lets farms read the platform libraries and refuses their writes with 40301, changing nothing', async () => {
    for (const who of ['farm', 'farm2', 'nursery']) {
      expect((await page(who, '/api/kms/farmWorkTypes/page')).length).toBeGreaterThan(0);
      expect((await page(who, '/api/kms/systemTemplates/page')).length).toBeGreaterThan(0);
    }
    expect((await page('farm', '/api/kms/productionStandards/page')).length).toBeGreaterThan(0);
    const before = await fingerprint(t.db);
    const attempts: [string, Record<string, unknown>][] = [
      ['/api/kms/farmWorkTypes', { name: '覆膜', code: 'mulching' }],
      ['/api/kms/productionStandards', { name: '某标准', code: 'X-1', level: 'local' }],
      ['/api/kms/systemTemplates', { name: '我的模板', kind: 'keyNodes', cropId: 1 }],
      ['/api/kms/cropCategories', { name: '花卉', code: 'flower' }],
    ];
    for (const [url, body] of attempts) {
      const r = await call(t, tokens.farm, 'POST', url, body);
      expect([r.http, r.status], url).toEqual([403, 40301]);
    }
    const sys = (await page('farm', '/api/kms/systemTemplates/page'))[0];
    const put = await call(t, tokens.farm, 'PUT', `/api/kms/systemTemplates/${sys.id}`, { name: '改名', kind: sys.kind, cropId: sys.cropId, version: sys.version });
    expect(put.status).toBe(40301);
    expect((await call(t, tokens.farm, 'DELETE', `/api/kms/systemTemplates/${sys.id}`)).status).toBe(40301);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it("keeps each farm's planting templates to itself: another farm gets 40401 as for a missing id", async () => {
    const mine = await page('farm', '/api/agricultureKnowledge/planTemplates/page');
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const theirs = await page('farm2', '/api/agricultureKnowledge/planTemplates/page');
    expect(theirs.length).toBeGreaterThanOrEqual(2);
    expect(theirs.some((r) => mine.some((m) => m.id === r.id))).toBe(false);
    const target = mine[0];
    for (const [method, url, body] of [
      ['GET', `/api/agricultureKnowledge/planTemplates/${target.id}`, undefined],
      ['PUT', `/api/agricultureKnowledge/planTemplates/${target.id}`, { name: '抢改', kind: target.kind, cropId: target.cropId, version: target.version }],
      ['DELETE', `/api/agricultureKnowledge/planTemplates/${target.id}`, undefined],
    ] as const) {
      const r = await call(t, tokens.farm2, method, url, body);
      expect([r.http, r.status], `${method} ${url}`).toEqual([404, 40401]);
    }
    expect((await page('nursery', '/api/agricultureKnowledge/planTemplates/page')).length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a bad work item with 40001 on its row field, in the request language, and stores nothing', async () => {
    const [template] = await page('farm', '/api/agricultureKnowledge/planTemplates/page?kind=pattern');
    const workItems = structuredClone(template.workItems) as Record<string, any>[];
    workItems[2].days = 0;
    const before = await fingerprint(t.db);
    const body = { name: template.name, kind: template.kind, cropId: template.cropId, workItems, version: template.version };
    const zh = await call(t, tokens.farm, 'PUT', `/api/agricultureKnowledge/planTemplates/${template.id}`, body);
    expect(zh.status).toBe(40001);
    expect(zh.data.errors).toEqual([{ field: 'workItems.2.days', message: expect.stringContaining('持续天数') }]);
    const en = await call(t, tokens.farm, 'PUT', `/api/agricultureKnowledge/planTemplates/${template.id}`, body, 'en');
    expect(en.data.errors[0]).toEqual({ field: 'workItems.2.days', message: expect.stringContaining('Days') });
    workItems[2].days = 3;
    workItems[1].startDay = -1;
    delete workItems[0].materials;
    workItems[3].materials = [{ name: '尿素', amountPerMu: 10 }];
    const two = await call(t, tokens.farm, 'PUT', `/api/agricultureKnowledge/planTemplates/${template.id}`, { ...body, workItems });
    expect(two.status).toBe(40001);
    expect(two.data.errors.map((e: any) => e.field).sort()).toEqual(['workItems.1.startDay', 'workItems.3.materials.0.unit']);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('copies a system template into the farm, audited, and the copy is the farm’s to edit', async () => {
    const systems = await page('farm', '/api/kms/systemTemplates/page?kind=seasonWork&pageSize=50');
    const tomato = systems.find((r) => r.labels.cropId === '番茄')!;
    const r = await call(t, tokens.farm, 'POST', '/api/agricultureKnowledge/planTemplates/copy', { systemTemplateId: tomato.id });
    expect(r.status, r.message).toBe(200);
    const copy = r.data;
    expect(copy.id).not.toBe(tomato.id);
    expect(copy).toMatchObject({ name: tomato.name, kind: 'seasonWork', cropId: tomato.cropId, workItems: tomato.workItems, sourceTemplateId: tomato.id, version: 1 });
    const farm = (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'farm'`)).rows[0];
    expect(copy.farmId).toBe(farm.org_id);
    const log = (
      await t.db.query<{ action: string; username: string; changes: any }>(
        `SELECT action, username, changes FROM operation_log WHERE resource = 'planTemplates' AND record_id = $1`,
        [String(copy.id)],
      )
    ).rows;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: 'planTemplates.create', username: 'farm' });
    const changes = typeof log[0].changes === 'string' ? JSON.parse(log[0].changes) : log[0].changes;
    expect(changes.fields.sourceTemplateId).toEqual({ from: null, to: tomato.id });

    // The farm adapts its copy; the system template stays as it was.
    const items = structuredClone(copy.workItems);
    items[4].days = 3;
    const put = await call(t, tokens.farm, 'PUT', `/api/agricultureKnowledge/planTemplates/${copy.id}`, { ...copy, workItems: items });
    expect(put.status, put.message).toBe(200);
    expect((await call(t, tokens.farm, 'GET', `/api/kms/systemTemplates/${tomato.id}`)).data.workItems[4].days).toBe(tomato.workItems[4].days);
    expect((await call(t, tokens.farm2, 'GET', `/api/agricultureKnowledge/planTemplates/${copy.id}`)).status).toBe(40401);
  });

  it('refuses a copy of an unknown id (40401), a bad body (40001), and a caller without the create code (40301), changing nothing', async () => {
    // 'factory' holds no planting-template code at all (logged in first: a login is audited too).
    const factory = await t.login('factory');
    const before = await fingerprint(t.db);
    const unknown = await call(t, tokens.farm, 'POST', '/api/agricultureKnowledge/planTemplates/copy', { systemTemplateId: 2147483000 });
    expect([unknown.http, unknown.status]).toEqual([404, 40401]);
    const own = (await page('farm', '/api/agricultureKnowledge/planTemplates/page'))[0];
    // A farm's own template is not a system template.
    expect((await call(t, tokens.farm, 'POST', '/api/agricultureKnowledge/planTemplates/copy', { systemTemplateId: own.id })).status).toBe(40401);
    const bad = await call(t, tokens.farm, 'POST', '/api/agricultureKnowledge/planTemplates/copy', { systemTemplateId: 'x' });
    expect(bad.status).toBe(40001);
    expect(bad.data.errors[0].field).toBe('systemTemplateId');
    const sys = (await page('farm', '/api/kms/systemTemplates/page'))[0];
    expect((await call(t, factory, 'POST', '/api/agricultureKnowledge/planTemplates/copy', { systemTemplateId: sys.id })).status).toBe(40301);
    // A platform administrator has no farm of its own and must name one.
    const admin = await call(t, tokens.admin, 'POST', '/api/agricultureKnowledge/planTemplates/copy', { systemTemplateId: sys.id });
    expect(admin.status).toBe(40001);
    expect(admin.data.errors[0].field).toBe('farmId');
    expect(await fingerprint(t.db)).toBe(before);
  });
});
