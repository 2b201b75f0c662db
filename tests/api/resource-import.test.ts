/**
 * Import of records from a spreadsheet (docs/import.md) through the resource engine's
 * `POST {base}/import`, on every engine: CSV and xlsx files built here; a preview with bad
 * rows and their sentences in the user's language; `all` refused with nothing changed
 * when a row is bad; `validOnly`; a goods code repeated inside the file and one already in
 * the catalogue; scope (another farm's records untouched); the element code; size limits;
 * one operation-log row per import.
 */
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, demoOrg, fingerprint, makeUser, type Body } from './resource-fixtures.ts';
import { IMPORT_MAX_BYTES } from '../../runtime/schema/resource-import.ts';

const LIST = '/api/farmMaterials/list';
const SUPPLIERS = '/api/farmMaterials/supplier';
const PRODUCTS = '/api/fertilizerFactory/products';

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const csv = (lines: string[]) => b64('\uFEFF' + lines.join('\r\n') + '\r\n');

describe.each(engines())('resource import on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let factory: string;
  let farmSupplier: Body;

  const materials = async (token: string, goodsCode: string) => (await call(t, token, 'GET', `${LIST}/page?goodsCode=${encodeURIComponent(goodsCode)}&pageSize=50`)).data.rows as Body[];
  const importLog = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log WHERE action = 'farmMaterials.import'`)).rows[0].n;

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    factory = `Bearer ${await t.login('factory')}`;
    farmSupplier = (await call(t, farm, 'GET', `${SUPPLIERS}/page?pageSize=1&sort=id`)).data.rows[0];
  });
  afterAll(async () => {
    await t?.close();
  });

  const FILE = [
    '商品编码 *,农资名称 *,品类 *,单位 *,单价（元）,供应商,备注',
    'IMP-001,"尿素, 46%",肥料,袋,120.5,,"第一行, 带引号 ""说明"""',
    'IMP-002,吡虫啉,农药,瓶,abc,,',
    'IMP-003,滴灌带,不存在的品类,卷,30,,',
    'IMP-004,复合肥,fertilizer,袋,150,SUPPLIER,',
  ];
  const fileWith = (supplierName: string) => csv(FILE.map((l) => l.replace('SUPPLIER', supplierName)));

  it('a preview answers every row with its problems in the user’s words, and keeps nothing', async () => {
    const before = await fingerprint(t.db);
    const r = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', fileName: 'materials.csv', content: fileWith(String(farmSupplier.name)) });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data).toMatchObject({ mode: 'preview', total: 4, valid: 2, invalid: 2, imported: 0 });
    expect(r.message).toBe('已检查 4 行：2 行可导入，2 行有错误');
    const [first, second, third, fourth] = r.data.rows;
    expect(first).toMatchObject({ row: 2, ok: true, errors: [] });
    expect(first.cells).toMatchObject({ goodsCode: 'IMP-001', name: '尿素, 46%', remark: '第一行, 带引号 "说明"', unitPrice: '120.5' });
    expect(first.id).toBeUndefined();
    expect(second).toMatchObject({ row: 3, ok: false });
    expect(second.errors).toEqual([{ field: 'unitPrice', message: expect.stringContaining('单价（元）') }]);
    expect(third.errors.map((e: Body) => e.field)).toEqual(['category']);
    expect(third.errors[0].message).toContain('品类');
    // The supplier by its name, in the farm's own suppliers.
    expect(fourth).toMatchObject({ row: 5, ok: true });
    expect(r.data.columns.map((c: Body) => c.field)).toEqual(['goodsCode', 'name', 'category', 'unit', 'unitPrice', 'supplierId', 'remark']);
    expect(await fingerprint(t.db)).toBe(before);
    // The same sentences in English and Spanish.
    const en = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: fileWith(String(farmSupplier.name)) }, 'en');
    expect(en.data.rows[1].errors[0].message).toContain('Unit price');
    const es = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: fileWith(String(farmSupplier.name)) }, 'es');
    expect(es.data.rows[1].errors[0].message).toMatch(/Precio unitario/i);
  });

  it('`all` imports nothing while a row is invalid: 40001 naming the rows', async () => {
    const before = await fingerprint(t.db);
    const r = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'all', content: fileWith(String(farmSupplier.name)) });
    expect(r.status, r.raw.body).toBe(40001);
    expect(r.message).toBe('有 2 行不合格，未导入任何记录：第 3、4 行');
    expect(r.data.errors.map((e: Body) => e.field)).toEqual(['rows.3.unitPrice', 'rows.4.category']);
    expect(r.data.errors[0].message).toMatch(/^第 3 行：/);
    expect(await fingerprint(t.db)).toBe(before);
    expect(await materials(farm, 'IMP-001')).toEqual([]);
  });

  it('`validOnly` imports the valid rows in one go, with one operation-log row', async () => {
    const logs = await importLog();
    const r = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'validOnly', fileName: 'materials.csv', content: fileWith(String(farmSupplier.name)) });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data).toMatchObject({ imported: 2, valid: 2, invalid: 2 });
    expect(r.message).toBe('已导入 2 条记录');
    const [row] = await materials(farm, 'IMP-001');
    expect(row).toMatchObject({ name: '尿素, 46%', category: 'fertilizer', unit: '袋', unitPrice: 120.5, remark: '第一行, 带引号 "说明"' });
    const [withSupplier] = await materials(farm, 'IMP-004');
    expect(withSupplier.supplierId).toBe(farmSupplier.id);
    expect((withSupplier.labels as Body).supplierId).toBe(farmSupplier.name);
    expect(await importLog()).toBe(logs + 1);
    const log = (await t.db.query<{ changes: Body; username: string }>(`SELECT changes, username FROM operation_log WHERE action = 'farmMaterials.import' ORDER BY id DESC LIMIT 1`)).rows[0];
    expect(log.username).toBe('farm');
    expect(log.changes).toMatchObject({ mode: 'validOnly', count: 2, skipped: 2, fileName: 'materials.csv' });
    expect(log.changes.ids).toEqual([row.id, withSupplier.id]);
  });

  it('a goods code repeated inside the file, or already in the catalogue, is refused on its row', async () => {
    const content = csv(['商品编码,农资名称,品类,单位', 'IMP-001,又一个尿素,肥料,袋', 'IMP-010,新肥料,肥料,袋', 'IMP-010,重复的肥料,肥料,袋']);
    const r = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data.rows.map((x: Body) => x.ok)).toEqual([false, true, false]);
    expect(r.data.rows[0].errors).toEqual([{ field: 'goodsCode', message: expect.stringContaining('IMP-001') }]);
    expect(r.data.rows[2].errors).toEqual([{ field: 'goodsCode', message: expect.stringContaining('IMP-010') }]);
    const before = await fingerprint(t.db);
    expect((await call(t, farm, 'POST', `${LIST}/import`, { mode: 'all', content })).status).toBe(40001);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('rows are the caller’s farm: another farm may hold the same code, and its records are untouched', async () => {
    const farm2Before = (await call(t, farm2, 'GET', `${LIST}/page?pageSize=500`)).data.rows;
    // farm2 imports the code farm already has: a farm's codes are its own.
    const r = await call(t, farm2, 'POST', `${LIST}/import`, { mode: 'all', content: csv(['goodsCode,name,category,unit', 'IMP-001,Urea,fertilizer,bag']) }, 'en');
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data.imported).toBe(1);
    const [mine] = await materials(farm2, 'IMP-001');
    expect(mine.farmId).not.toBe((await materials(farm, 'IMP-001'))[0].farmId);
    expect((await materials(farm, 'IMP-001'))[0].name).toBe('尿素, 46%');
    expect((await call(t, farm2, 'GET', `${LIST}/page?pageSize=500`)).data.rows.length).toBe(farm2Before.length + 1);
    // farm's supplier is no supplier of farm2: named, it is not found.
    const other = await call(t, farm2, 'POST', `${LIST}/import`, { mode: 'preview', content: csv(['goodsCode,name,category,unit,供应商', `IMP-020,Urea,fertilizer,bag,${farmSupplier.name}`]) }, 'en');
    expect(other.data.rows[0].errors).toEqual([{ field: 'supplierId', message: expect.stringContaining(String(farmSupplier.name)) }]);
  });

  it('with `update`, a row naming a goods code of the farm updates that material (the file’s columns only); others are created', async () => {
    const [before] = await materials(farm, 'IMP-001');
    const content = csv(['商品编码 *,农资名称 *,品类 *,单位 *,单价（元）', 'IMP-001,尿素（新包装）,肥料,袋,118', 'IMP-030,硝酸钾,肥料,袋,210']);
    const preview = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content, update: true });
    expect(preview.status, preview.raw.body).toBe(200);
    expect(preview.data).toMatchObject({ total: 2, valid: 2, invalid: 0, imported: 0, updated: 1 });
    expect(preview.data.rows.map((r: Body) => r.updated)).toEqual([true, false]);
    expect(preview.message).toBe('已检查 2 行：2 行可导入（其中 1 行更新已有记录），0 行有错误');
    expect((await materials(farm, 'IMP-001'))[0]).toMatchObject({ name: before.name, version: before.version });
    // Without `update` the same file refuses the existing code, as a create would.
    expect((await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content })).data.rows[0].ok).toBe(false);

    const farm2Copy = (await materials(farm2, 'IMP-001'))[0];
    const done = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'all', content, update: true }, 'en');
    expect(done.status, done.raw.body).toBe(200);
    expect(done.message).toBe('2 record(s) imported: 1 added, 1 updated');
    const [after] = await materials(farm, 'IMP-001');
    // The file's columns over the stored record: the remark the file does not carry is kept.
    expect(after).toMatchObject({ id: before.id, name: '尿素（新包装）', unitPrice: 118, remark: before.remark, version: Number(before.version) + 1 });
    expect((await materials(farm, 'IMP-030'))[0]).toMatchObject({ name: '硝酸钾', version: 1 });
    // Another farm's record of the same code is not touched.
    expect((await materials(farm2, 'IMP-001'))[0]).toEqual(farm2Copy);
    const log = (await t.db.query<{ changes: Body }>(`SELECT changes FROM operation_log WHERE action = 'farmMaterials.import' ORDER BY id DESC LIMIT 1`)).rows[0];
    expect(log.changes).toMatchObject({ count: 1, updated: 1, updatedIds: [before.id] });

    // An updated row still meets the update's rules: content per unit without its unit is refused on the row.
    const bad = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', update: true, content: csv(['商品编码,农资名称,品类,单位,每单位含量', 'IMP-001,尿素,肥料,袋,40']) });
    expect(bad.data.rows[0]).toMatchObject({ ok: false, errors: [{ field: 'contentUnit', message: expect.stringContaining('含量单位') }] });
    // Rows that update are updates: without the update element code, 40301 before the file is read.
    const { orgId } = await demoOrg(t.db, 'farm');
    const creator = `Bearer ${(await makeUser(t, { orgId, menus: ['farmMaterialsManage', 'farmMaterialsList'], elements: ['farmMaterialsList:view', 'farmMaterialsList:add'] })).token}`;
    expect((await call(t, creator, 'POST', `${LIST}/import`, { mode: 'preview', update: true, content })).status).toBe(40301);
    expect((await call(t, creator, 'POST', `${LIST}/import`, { mode: 'preview', content })).status).toBe(200);
    // A list with no key cannot update.
    const suppliers = await call(t, farm, 'POST', `${SUPPLIERS}/import`, { mode: 'preview', update: true, content: csv(['name', '某供应商']) }, 'es');
    expect(suppliers.status).toBe(40001);
    expect(suppliers.data.errors).toEqual([{ field: 'update', message: 'Esta lista no puede actualizar registros existentes por un código' }]);
  });

  it('an xlsx file: typed cells, option titles, lists and yes/no words', async () => {
    const buffer = await writeXlsxFile([
      [{ value: '供应商名称' }, { value: '状态' }, { value: '供应品类' }, { value: '评价（1-5 星）' }, { value: '联系电话' }],
      [{ value: '龙江农资站' }, { value: '启用' }, { value: '肥料、农药' }, { value: 4 }, { value: '0451-8888' }],
      [{ value: '坏的供应商' }, { value: '启用' }, { value: '肥料' }, { value: 9 }, { value: '电话' }],
    ]).toBuffer();
    const preview = await call(t, farm, 'POST', `${SUPPLIERS}/import`, { mode: 'preview', fileName: 's.xlsx', content: b64(buffer) });
    expect(preview.status, preview.raw.body).toBe(200);
    expect(preview.data.rows[0]).toMatchObject({ ok: true });
    expect(preview.data.rows[1].errors.map((e: Body) => e.field).sort()).toEqual(['phone', 'rating']);
    const r = await call(t, farm, 'POST', `${SUPPLIERS}/import`, { mode: 'validOnly', content: b64(buffer) });
    expect(r.data.imported).toBe(1);
    const [row] = (await call(t, farm, 'GET', `${SUPPLIERS}/page?name=${encodeURIComponent('龙江农资站')}`)).data.rows;
    expect(row).toMatchObject({ status: 1, categories: ['fertilizer', 'pesticide'], rating: 4, phone: '0451-8888' });

    const products = await writeXlsxFile([
      ['Product name', 'Type', 'Unit', 'Ex-works price (CNY)', 'On sale'],
      ['复合肥 18-18-18', '复合肥', '袋', 168.5, '是'],
    ]).toBuffer();
    const p = await call(t, factory, 'POST', `${PRODUCTS}/import`, { mode: 'all', content: b64(products) });
    expect(p.status, p.raw.body).toBe(200);
    const [product] = (await call(t, factory, 'GET', `${PRODUCTS}/page?name=${encodeURIComponent('复合肥 18-18-18')}`)).data.rows;
    expect(product).toMatchObject({ productType: 'compound', price: 168.5, onSale: true });
  });

  it('without the create element code the import is refused (40301) before the file is read', async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO users(username, name, password_hash, org_id) SELECT 'importReader', 'Reader', 'x', org_id FROM users WHERE username = 'farm' RETURNING id`,
    );
    await t.db.query(`INSERT INTO roles(code, name, menus, elements) VALUES ('importReader', '{"zh":"读","en":"Reader","es":"Lector"}', '{farmMaterialsManage,farmMaterialsList}', '{farmMaterialsList:view,farmMaterialsList:export}')`);
    await t.db.query(`INSERT INTO user_roles(user_id, role_id) SELECT $1, id FROM roles WHERE code = 'importReader'`, [rows[0].id]);
    const reader = `Bearer ${await t.app.tokens.issue({ id: rows[0].id, username: 'importReader' })}`;
    expect((await call(t, reader, 'GET', `${LIST}/page`)).status).toBe(200);
    const before = await fingerprint(t.db);
    const r = await call(t, reader, 'POST', `${LIST}/import`, { mode: 'all', content: csv(['goodsCode,name,category,unit', 'IMP-030,x,fertilizer,bag']) });
    expect(r.status).toBe(40301);
    // A farm without the manufacturer's menu cannot import its products either.
    expect((await call(t, farm, 'POST', `${PRODUCTS}/import`, { mode: 'preview', content: csv(['name', 'x']) })).status).toBe(40301);
    expect((await call(t, null, 'POST', `${LIST}/import`, { mode: 'preview', content: '' })).status).toBe(40101);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('refuses files too large, too long, unreadable or without known columns, on the file', async () => {
    const before = await fingerprint(t.db);
    const big = csv(['goodsCode,name,category,unit', `IMP-040,${'x'.repeat(IMPORT_MAX_BYTES)},fertilizer,bag`]);
    const tooBig = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: big });
    expect(tooBig.status, tooBig.raw.body.slice(0, 300)).toBe(40001);
    expect(tooBig.message).toBe('文件过大（上限 5 MB）');
    expect(tooBig.data.errors[0].field).toBe('content');
    const huge = await t.app.inject({ method: 'POST', url: `${LIST}/import`, headers: { authorization: farm }, payload: { mode: 'preview', content: 'A'.repeat(12 * 1024 * 1024) } });
    expect(huge.statusCode).toBe(413);
    const lines = ['goodsCode,name,category,unit', ...Array.from({ length: 5001 }, (_, i) => `L-${i},n,fertilizer,bag`)];
    const long = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: csv(lines) });
    expect(long.message).toBe('文件的数据超过 5000 行，一次最多导入 5000 行：超出的部分没有读取');
    const unknown = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: csv(['foo,bar', '1,2']) }, 'en');
    expect(unknown.status).toBe(40001);
    expect(unknown.message).toContain('Goods code');
    const latin1 = Buffer.from('goodsCode,name,category,unit\r\nIMP-050,caf\xe9,fertilizer,bag\r\n', 'latin1').toString('base64');
    expect((await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: latin1 })).message).toContain('UTF-8');
    const unclosed = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: csv(['goodsCode,name,category,unit', 'IMP-051,"open,fertilizer,bag']) });
    expect(unclosed.message).toContain('第 2 行');
    expect((await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: csv(['goodsCode,name,category,unit']) })).message).toContain('没有要导入的数据行');
    expect((await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: '%%%' })).data.errors[0].field).toBe('content');
    expect((await call(t, farm, 'POST', `${LIST}/import`, { mode: 'everything', content: '' })).data.errors[0].field).toBe('mode');
    expect(await fingerprint(t.db)).toBe(before);
  });
});
