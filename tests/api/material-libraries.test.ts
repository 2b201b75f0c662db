/**
 * The platform material libraries through the API (docs/materials.md, "Platform
 * libraries"): manufacturers, the material library by mainType, dealers and device models.
 * Reads per role (farms read the material library to link their catalogue), writes only
 * with the element codes of the entry's own kind, 40001 on bad input with nothing changed,
 * deletion refused while something links to a record, audited writes, the farm
 * catalogue's link filling blanks from the library, and the one form choosing its fields
 * by the route's mainType.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, fingerprint } from './resource-fixtures.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { loadRegistry } from '../../runtime/schema/registry.ts';
import { evaluate } from '../../runtime/schema/conditions.ts';
import type { FormScreen } from '../../runtime/schema/screen.ts';

const KINDS = ['fertilizer', 'pesticide', 'seed', 'seedling', 'equipmentPart', 'facilityPart'];

describe.each(engines())('platform material libraries on $name', (engine) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(engine);
    for (const u of ['admin', 'farm', 'farm2', 'factory', 'center', 'nursery', 'provider']) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = async (who: string, url: string) => {
    const r = await call(t, tokens[who], 'GET', url);
    expect(r.status, r.message).toBe(200);
    return r.data.rows as Record<string, any>[];
  };
  const entry = async (name: string) => (await page('admin', `/api/kms/tankMaterials/page?pageSize=5&name=${encodeURIComponent(name)}`)).find((r) => r.name === name)!;
  const factory = async (name: string) => (await page('admin', `/api/kms/tankFactories/page?pageSize=5&name=${encodeURIComponent(name)}`)).find((r) => r.name === name)!;
  const logCount = async (resource: string, action: string) =>
    (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM operation_log WHERE resource = $1 AND action LIKE $2', [resource, `%${action}%`])).rows[0].n;

  it('seeds 8 or more entries of every kind, manufacturers, dealers and device models, and links the farms’ catalogues', async () => {
    for (const kind of KINDS) {
      const rows = await page('admin', `/api/kms/tankMaterials/page?pageSize=50&mainType=${kind}`);
      expect(rows.length, kind).toBeGreaterThanOrEqual(8);
      expect(rows.length, kind).toBeLessThanOrEqual(15);
      expect(rows.every((r) => r.mainType === kind && r.labels.factoryId)).toBe(true);
    }
    expect((await page('admin', '/api/kms/tankFactories/page?pageSize=50')).map((r) => r.name)).toEqual(
      expect.arrayContaining(['史丹利农业集团股份有限公司', '金正大生态工程集团股份有限公司', '云南云天化股份有限公司']),
    );
    expect((await page('admin', '/api/kms/tankAgents/page?pageSize=50')).length).toBeGreaterThanOrEqual(8);
    const devices = await page('admin', '/api/kms/deviceModels/page?pageSize=50');
    expect(devices.map((d) => d.kind)).toEqual(expect.arrayContaining(['sensor', 'gateway', 'valve']));
    const imidacloprid = await entry('吡虫啉 10% 可湿性粉剂');
    expect(imidacloprid).toMatchObject({ mainType: 'pesticide', safetyIntervalDays: 14, registrationNo: 'PD20096870' });
    expect((await entry('尿素 46%')).nitrogen).toBe(46);
    expect((await entry('郑单958 玉米种')).labels.cropId).toBe('玉米');
    const catalogue = await page('farm', '/api/farmMaterials/list/page?pageSize=50');
    expect(catalogue.find((r) => r.name === '吡虫啉 10% 可湿性粉剂')).toMatchObject({ libraryId: imidacloprid.id, labels: { libraryId: '吡虫啉 10% 可湿性粉剂' } });
  });

  it('lets the holders of the library menus read it, farms read the material library only, and refuses the rest with 40301', async () => {
    for (const who of ['admin', 'factory', 'center', 'nursery', 'farm', 'farm2']) {
      expect((await page(who, '/api/kms/tankMaterials/page?mainType=pesticide')).length, who).toBeGreaterThan(0);
    }
    for (const who of ['admin', 'factory', 'center']) {
      expect((await page(who, '/api/kms/tankFactories/page')).length, who).toBeGreaterThan(0);
      expect((await page(who, '/api/kms/tankAgents/page')).length, who).toBeGreaterThan(0);
    }
    for (const who of ['admin', 'center']) expect((await page(who, '/api/kms/deviceModels/page')).length, who).toBeGreaterThan(0);
    for (const [who, url] of [
      ['farm', '/api/kms/tankFactories/page'],
      ['farm', '/api/kms/tankAgents/page'],
      ['farm', '/api/kms/deviceModels/page'],
      ['factory', '/api/kms/deviceModels/page'],
      ['provider', '/api/kms/tankMaterials/page'],
    ]) {
      expect((await call(t, tokens[who], 'GET', url)).status, `${who} ${url}`).toBe(40301);
    }
  });

  it('writes an entry only with the element codes of its kind; the rows say which in _can', async () => {
    const before = await fingerprint(t.db);
    const fertilizer = { mainType: 'fertilizer', name: '测试复合肥', unit: '袋', status: 1 };
    // A farm reads the library but holds no element code of it; the nursery reads seedlings only.
    expect((await call(t, tokens.farm, 'POST', '/api/kms/tankMaterials', fertilizer)).status).toBe(40301);
    expect((await call(t, tokens.nursery, 'POST', '/api/kms/tankMaterials', { ...fertilizer, mainType: 'seedling', variety: '测试' })).status).toBe(40301);
    // The manufacturer keeps the fertilizer, pesticide, seed and seedling libraries, not the parts.
    const part = await call(t, tokens.factory, 'POST', '/api/kms/tankMaterials', { mainType: 'equipmentPart', name: '测试刀片', unit: '片', status: 1 }, 'en');
    expect(part.status).toBe(40301);
    expect(part.message).toContain('equipment part');
    const drip = await entry('内镶式滴灌带');
    expect((await call(t, tokens.factory, 'PUT', `/api/kms/tankMaterials/${drip.id}`, { ...strip(drip), remark: 'x' })).status).toBe(40301);
    expect((await call(t, tokens.factory, 'DELETE', `/api/kms/tankMaterials/${drip.id}`)).status).toBe(40301);
    // Nor may an entry be moved into a kind the caller does not keep.
    const urea = await entry('尿素 46%');
    const moved: Record<string, unknown> = { ...strip(urea), mainType: 'facilityPart' };
    for (const k of ['nitrogen', 'phosphorus', 'potassium', 'fertilizerType', 'fertilizerForm']) delete moved[k];
    expect((await call(t, tokens.factory, 'PUT', `/api/kms/tankMaterials/${urea.id}`, moved)).status).toBe(40301);
    expect(await fingerprint(t.db)).toBe(before);

    const rows = await page('factory', '/api/kms/tankMaterials/page?pageSize=100');
    expect(rows.find((r) => r.mainType === 'fertilizer')?._can).toEqual({ edit: true, delete: true });
    expect(rows.find((r) => r.mainType === 'facilityPart')?._can).toEqual({ edit: false, delete: false });
    for (const r of await page('admin', '/api/kms/tankMaterials/page?pageSize=100')) expect(r._can).toEqual({ edit: true, delete: true });

    const logs = await logCount('tankMaterials', 'create');
    const made = await call(t, tokens.factory, 'POST', '/api/kms/tankMaterials', { ...fertilizer, registrationNo: '鲁农肥（2025）准字 9999 号', nitrogen: 15, phosphorus: 15, potassium: 15 });
    expect(made.status, made.message).toBe(200);
    expect(await logCount('tankMaterials', 'create')).toBe(logs + 1);
    // The regional center keeps every kind under agricultureKnowledge.
    const valve = await call(t, tokens.center, 'POST', '/api/kms/tankMaterials', { mainType: 'facilityPart', name: '测试卷膜器', unit: '个', status: 1, model: 'T-1' });
    expect(valve.status, valve.message).toBe(200);
    expect((await call(t, tokens.center, 'DELETE', `/api/kms/tankMaterials/${valve.data.id}`)).status).toBe(200);
    expect((await call(t, tokens.factory, 'DELETE', `/api/kms/tankMaterials/${made.data.id}`)).status).toBe(200);
  });

  it('refuses bad input with 40001 on the field, in the caller’s language, changing nothing', async () => {
    const before = await fingerprint(t.db);
    const stanley = await factory('史丹利农业集团股份有限公司');
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['a pesticide without safety interval', { mainType: 'pesticide', name: '某杀虫剂', unit: '瓶', status: 1, registrationNo: 'PD20990001' }, 'safetyIntervalDays', /农药必须填写「安全间隔期（天）」/],
      ['a registration number taken in the kind', { mainType: 'pesticide', name: '吡虫啉 仿', unit: '袋', status: 1, registrationNo: 'PD20096870', safetyIntervalDays: 7 }, 'registrationNo', /PD20096870.*吡虫啉 10% 可湿性粉剂/],
      ['a kind that does not exist', { mainType: 'herbal', name: '某物', unit: '个', status: 1 }, 'mainType', /类别/],
      ['a manufacturer that does not exist', { mainType: 'fertilizer', name: '某肥', unit: '袋', status: 1, factoryId: 999999 }, 'factoryId', /厂家/],
      ['a crop that does not exist', { mainType: 'seed', name: '某种', unit: '袋', status: 1, variety: 'X', cropId: 999999 }, 'cropId', /作物/],
      ['a field of another kind', { mainType: 'fertilizer', name: '某肥', unit: '袋', status: 1, safetyIntervalDays: 7 }, 'safetyIntervalDays', /「安全间隔期（天）」不用于肥料/],
      ['a seed without variety', { mainType: 'seed', name: '某种', unit: '袋', status: 1 }, 'variety', /品种/],
      ['nutrients over 100 %', { mainType: 'fertilizer', name: '某肥', unit: '袋', status: 1, nitrogen: 120 }, 'nitrogen', /氮/],
      ['an unknown field', { mainType: 'fertilizer', name: '某肥', unit: '袋', status: 1, colour: 'red' }, 'colour', /colour/],
    ];
    for (const [what, body, field, sentence] of cases) {
      const r = await call(t, tokens.admin, 'POST', '/api/kms/tankMaterials', body);
      expect(r.status, what).toBe(40001);
      const err = r.data.errors.find((e: { field: string }) => e.field === field);
      expect(err, `${what}: ${JSON.stringify(r.data.errors)}`).toBeDefined();
      expect(err.message, what).toMatch(sentence);
    }
    // The same sentence in English and Spanish.
    const en = await call(t, tokens.admin, 'POST', '/api/kms/tankMaterials', cases[0][1], 'en');
    expect(en.data.errors[0]).toEqual({ field: 'safetyIntervalDays', message: 'A pesticide needs “Safety interval (days)”' });
    const es = await call(t, tokens.admin, 'POST', '/api/kms/tankMaterials', cases[0][1], 'es');
    expect(es.data.errors[0].message).toBe('«Plazo de seguridad (días)» es obligatorio en el tipo «Plaguicida»');
    // A registration number of another kind is free: numbers are unique within a kind.
    // Updating an entry keeps its own number; taking another's is refused.
    const abamectin = await entry('阿维菌素 1.8% 乳油');
    const taken = await call(t, tokens.admin, 'PUT', `/api/kms/tankMaterials/${abamectin.id}`, { ...strip(abamectin), registrationNo: 'PD20096870' });
    expect(taken.status).toBe(40001);
    expect(taken.data.errors[0].field).toBe('registrationNo');
    // Manufacturers: a name taken, a credit code of the wrong shape; device models: one model per vendor.
    const dup = await call(t, tokens.admin, 'POST', '/api/kms/tankFactories', { name: ' 史丹利农业集团股份有限公司', region: '山东', status: 1 });
    expect(dup.status).toBe(40001);
    expect(dup.data.errors[0]).toMatchObject({ field: 'name', message: expect.stringContaining('已有名为') });
    const code = await call(t, tokens.admin, 'POST', '/api/kms/tankFactories', { name: '某厂', region: '山东', status: 1, creditCode: 'ABC' });
    expect(code.data.errors[0]).toMatchObject({ field: 'creditCode', message: expect.stringContaining('18 位') });
    const device = await call(t, tokens.admin, 'POST', '/api/kms/deviceModels', { name: '又一个', model: 'rs-ectH-n01-tr', kind: 'sensor', vendor: '山东仁科测控技术有限公司', protocol: 'modbusRtu', status: 1 });
    expect(device.status).toBe(40001);
    expect(device.data.errors[0].field).toBe('model');
    const dealer = await call(t, tokens.admin, 'POST', '/api/kms/tankAgents', { name: '某经销商', level: 'county', region: '某地', status: 1, factoryId: 999999 });
    expect(dealer.data.errors[0].field).toBe('factoryId');
    expect(stanley.id).toBeGreaterThan(0);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('refuses deleting what is linked: an entry a farm’s catalogue names, a manufacturer entries name', async () => {
    const before = await fingerprint(t.db);
    const imidacloprid = await entry('吡虫啉 10% 可湿性粉剂');
    const del = await call(t, tokens.admin, 'DELETE', `/api/kms/tankMaterials/${imidacloprid.id}`);
    expect(del.status).toBe(40001);
    expect(del.message).toContain('农资清单');
    const stanley = await factory('史丹利农业集团股份有限公司');
    expect((await call(t, tokens.admin, 'DELETE', `/api/kms/tankFactories/${stanley.id}`)).status).toBe(40001);
    expect((await call(t, tokens.admin, 'DELETE', '/api/kms/tankFactories/batch', { ids: [stanley.id] })).status).toBe(40001);
    expect(await fingerprint(t.db)).toBe(before);
    // An unlinked manufacturer goes, audited.
    const made = await call(t, tokens.admin, 'POST', '/api/kms/tankFactories', { name: '临时厂家', region: '河北', status: 1 });
    const logs = await logCount('tankFactories', 'delete');
    expect((await call(t, tokens.admin, 'DELETE', `/api/kms/tankFactories/${made.data.id}`)).status).toBe(200);
    expect(await logCount('tankFactories', 'delete')).toBe(logs + 1);
  });

  it('links a farm’s catalogue material to an entry of its category and fills its blanks from the entry', async () => {
    const pymetrozine = await entry('吡蚜酮 25% 悬浮剂');
    const made = await call(t, tokens.farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'LIB-001', name: '吡蚜酮', category: 'pesticide', unit: '瓶', libraryId: pymetrozine.id });
    expect(made.status, made.message).toBe(200);
    expect(made.data).toMatchObject({
      libraryId: pymetrozine.id,
      registrationNo: 'PD20121853',
      safetyIntervalDays: 14,
      manufacturer: '南京红太阳股份有限公司',
      specification: '100 毫升/瓶',
      labels: { libraryId: '吡蚜酮 25% 悬浮剂' },
    });
    // What the farm typed stays.
    const own = await call(t, tokens.farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'LIB-002', name: '吡蚜酮', category: 'pesticide', unit: '瓶', libraryId: pymetrozine.id, safetyIntervalDays: 21 });
    expect(own.data.safetyIntervalDays).toBe(21);
    const before = await fingerprint(t.db);
    const wrong = await call(t, tokens.farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'LIB-003', name: 'x', category: 'fertilizer', unit: '袋', libraryId: pymetrozine.id });
    expect(wrong.status).toBe(40001);
    expect(wrong.data.errors[0]).toEqual({ field: 'libraryId', message: '所选农资库条目是农药，与品类「肥料」不一致' });
    const missing = await call(t, tokens.farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'LIB-004', name: 'x', category: 'fertilizer', unit: '袋', libraryId: 999999 });
    expect(missing.data.errors[0].field).toBe('libraryId');
    expect(await fingerprint(t.db)).toBe(before);
    // The farm's link now keeps the entry.
    expect((await call(t, tokens.admin, 'DELETE', `/api/kms/tankMaterials/${pymetrozine.id}`)).status).toBe(40001);
    for (const r of [made, own]) expect((await call(t, tokens.farm, 'DELETE', `/api/farmMaterials/list/${r.data.id}`)).status).toBe(200);
  });

  it('imports library entries from a CSV file through the same rules: a pesticide without safety interval is refused on its row', async () => {
    const file = Buffer.from(
      ['\uFEFFname,mainType,unit,status,safetyIntervalDays', '导入测试杀虫剂甲,pesticide,瓶,1,7', '导入测试杀虫剂乙,pesticide,瓶,1,', '导入测试复合肥,fertilizer,袋,1,'].join('\r\n'),
    ).toString('base64');
    const before = await fingerprint(t.db);
    const preview = await call(t, tokens.admin, 'POST', '/api/kms/tankMaterials/import', { mode: 'preview', fileName: 'library.csv', content: file });
    expect(preview.status, preview.raw.body).toBe(200);
    expect(preview.data).toMatchObject({ total: 3, valid: 2, invalid: 1, imported: 0 });
    const bad = JSON.stringify(preview.data);
    expect(bad).toContain('safetyIntervalDays');
    expect(await fingerprint(t.db)).toBe(before);
    expect((await call(t, tokens.admin, 'POST', '/api/kms/tankMaterials/import', { mode: 'all', content: file })).status).toBe(40001);
    expect(await fingerprint(t.db)).toBe(before);
    const done = await call(t, tokens.admin, 'POST', '/api/kms/tankMaterials/import', { mode: 'validOnly', content: file });
    expect(done.data).toMatchObject({ imported: 2 });
    expect((await entry('导入测试杀虫剂甲')).safetyIntervalDays).toBe(7);
    // A farm reads the library but does not write it, by import neither.
    expect((await call(t, tokens.farm, 'POST', '/api/kms/tankMaterials/import', { mode: 'preview', content: file })).status).toBe(40301);
  });

  it('serves one form for add, edit and show at both sections, its fields chosen by the route’s mainType', async () => {
    const registry = await loadRegistry([folderSource(process.cwd())]);
    const routes = ['agricultureKnowledge', 'bigData-kms'].flatMap((s) => ['add', 'edit', 'show'].map((m) => `/${s}/material/${m}/${m}/7/pesticide`));
    for (const path of routes) {
      const hit = registry.match(path);
      expect(hit?.screen.screen.id, path).toBe('materialLibraryForm');
      expect(hit?.params).toMatchObject({ operate: path.split('/')[3], tankMaterialSummaryId: '7', mainType: 'pesticide' });
      expect(hit?.authority).toBe(path.startsWith('/bigData-kms') ? 'materielManager' : 'agricultureKnowledgeMaterielManager');
    }
    const form = registry.screens.get('materialLibraryForm')!.screen as FormScreen;
    expect(form.initial).toMatchObject({ mainType: 'route.mainType' });
    const shown = (mainType: string) =>
      form.sections.filter((s) => evaluate(s.when, { mainType })).flatMap((s) => s.fields.filter((f) => evaluate(f.when, { mainType })).map((f) => f.field));
    expect(shown('pesticide')).toEqual(expect.arrayContaining(['safetyIntervalDays', 'activeIngredient', 'toxicity', 'registrationNo']));
    expect(shown('pesticide')).not.toContain('nitrogen');
    expect(shown('fertilizer')).toEqual(expect.arrayContaining(['nitrogen', 'phosphorus', 'potassium', 'registrationNo']));
    expect(shown('fertilizer')).not.toContain('safetyIntervalDays');
    expect(shown('seed')).toEqual(expect.arrayContaining(['variety', 'approvalNo', 'germinationRate']));
    expect(shown('seedling')).toEqual(expect.arrayContaining(['variety', 'seedlingAgeDays']));
    expect(shown('seedling')).not.toContain('germinationRate');
    expect(shown('equipmentPart')).toEqual(expect.arrayContaining(['model', 'suitableFor']));
    expect(shown('facilityPart')).not.toContain('registrationNo');
    // Every list's «新增» opens the add route with its own mainType.
    for (const [id, kind] of [
      ['tankFertilizerManager', 'fertilizer'],
      ['tankPesticideManager', 'pesticide'],
      ['tankSeedManager', 'seed'],
      ['tankSeedlingManager', 'seedling'],
      ['tankEquipmentAccessoriesManager', 'equipmentPart'],
      ['tankFacilitiesAccessoriesManager', 'facilityPart'],
    ]) {
      const table = registry.screens.get(id)!.screen as { toolbar: { params?: Record<string, unknown>; to?: string }[]; fixedFilters: { value: unknown }[] };
      expect(table.toolbar[0]).toMatchObject({ to: 'material/add/:operate/:tankMaterialSummaryId/:mainType', params: { mainType: { value: kind } } });
      expect(table.fixedFilters[0].value).toEqual({ value: kind });
    }
  });
});

/** A row as a full update body: the record's fields and its version. */
function strip(row: Record<string, any>): Record<string, any> {
  const { id: _id, farmId: _f, farmName: _fn, blocId: _b, createdAt: _c, updatedAt: _u, createdBy: _cb, updatedBy: _ub, labels: _l, _can: _cn, ...rest } = row;
  return rest;
}
