/**
 * The release gate (issue 25 item 2; docs/harvest-sales-trace.md, "The release gate"): a
 * batch harvested inside a safety interval gets no trace code, no public page and no sale
 * until a passing residue test of that batch dated after its harvest exists, or a holder of
 * farmHarvestIndex:release clears it with a reason (audited). Another batch's test, a group
 * test, a test dated before the harvest and a failing test never release it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';

describe.each(engines())('the release gate on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let provider: string;
  let group: Body;
  let store: number;

  const ok = async (token: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const r = await call(t, token, method, url, body);
    expect(r.status, r.raw.body).toBe(200);
    return r.data;
  };
  const page = (code: string) => t.app.inject({ method: 'GET', url: `/t/${code}`, headers: { 'accept-language': 'zh' } });
  const test = (extra: Body) => ok(farm, 'POST', '/api/qualityandSafety/records', { kind: 'residueTest', title: '农残检测', agency: '县检测站', conclusion: 'pass', ...extra });
  const sell = (harvestId: number, lang = 'zh') => call(t, farm, 'POST', '/api/marketing/sale/orders', { customer: '门市', orderedOn: '2034-07-01', lines: [{ harvestId, quantity: 1, unitPrice: 2 }] }, lang);
  const code = (harvestId: number, lang = 'zh') => call(t, farm, 'POST', '/api/trackInfoManage/codes', { harvestId }, lang);

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    provider = `Bearer ${await t.login('provider')}`;
    group = (await ok(farm, 'GET', '/api/farmPlantGroup/groups/page?pageSize=1&sort=id')).rows[0];
    store = (await ok(farm, 'GET', '/api/farmMaterials/stores/page?pageSize=1&sort=id')).rows[0].id;
    const pesticide = await ok(farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'RG-P1', name: '放行测试杀菌剂', category: 'pesticide', unit: '瓶', safetyIntervalDays: 10 });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockIn', { storeId: store, movedOn: '2034-05-01', lines: [{ materialId: pesticide.id, quantity: 5, unitPrice: 20 }] });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockOut', { storeId: store, movedOn: '2034-06-10', groupId: group.id, lines: [{ materialId: pesticide.id, quantity: 1 }] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const harvestInside = async (on: string) =>
    ok(farm, 'POST', '/api/farmHarvest/harvests', { groupId: group.id, harvestedOn: on, quantity: 50, unit: '公斤', grade: 'first', safetyOverrideReason: '寒潮前抢收' });

  it('holds a flagged batch: no code, no sale, says why in zh/en/es; only its own passing test after harvest releases it', async () => {
    const b = await harvestInside('2034-06-15');
    expect(b).toMatchObject({ safety: 'inInterval', release: 'held' });
    expect(b.releaseNote).toContain(`批次 ${b.batchNo} 在农药安全间隔期内采收（放行测试杀菌剂 2034-06-10 施用，2034-06-20 起才安全）`);
    const why = {
      zh: `批次 ${b.batchNo} 在农药安全间隔期内采收（放行测试杀菌剂 2034-06-10 施用，2034-06-20 起才安全），要等本批次采收后的农残检测合格，或有放行权限的人写明理由放行，才能生成追溯码和销售`,
      en: `Batch ${b.batchNo} was harvested inside a pesticide safety interval (放行测试杀菌剂 applied on 2034-06-10, safe from 2034-06-20); it gets no trace code and no sale until a residue test of this batch, dated after its harvest, passes, or someone allowed to release it gives a reason`,
      es: `El lote ${b.batchNo} se cosechó dentro de un plazo de seguridad (放行测试杀菌剂 aplicado el 2034-06-10, seguro desde el 2034-06-20); no tendrá código ni venta hasta que un análisis de residuos de este lote, posterior a su cosecha, sea conforme, o alguien autorizado lo libere con un motivo`,
    };
    const counts = async () => (await t.db.query<{ o: number; c: number }>('SELECT (SELECT count(*)::int FROM sales_orders) AS o, (SELECT count(*)::int FROM trace_codes) AS c')).rows[0];
    const before = await counts();
    for (const [lang, sentence] of Object.entries(why)) {
      const refusedCode = await code(b.id, lang);
      expect(refusedCode.status).toBe(40001);
      expect(refusedCode.data.errors).toEqual([{ field: 'harvestId', message: sentence }]);
      const refusedSale = await sell(b.id, lang);
      expect(refusedSale.status).toBe(40001);
      expect(refusedSale.data.errors).toEqual([{ field: 'lines.0.harvestId', message: sentence }]);
    }
    expect(await counts()).toEqual(before);
    // The sales and trace forms' batch list says it too.
    const options = await ok(farm, 'GET', '/api/farmHarvest/options/batches');
    expect(options.find((o: Body) => o.value === b.id).label).toContain('未放行：待本批次检测');

    // None of these releases it: another batch's test, a test of the group, a test dated before the harvest, a failing test.
    const other = await ok(farm, 'POST', '/api/farmHarvest/harvests', { groupId: group.id, harvestedOn: '2034-06-25', quantity: 10, unit: '公斤', grade: 'first' });
    expect(other.release).toBe('notFlagged');
    await test({ harvestId: other.id, groupId: group.id, testedOn: '2034-06-26' });
    await test({ groupId: group.id, testedOn: '2034-06-16' });
    await test({ harvestId: b.id, testedOn: '2034-06-14' });
    const failed = await test({ harvestId: b.id, testedOn: '2034-06-16', conclusion: 'fail' });
    expect(failed.id).toBeTruthy();
    const stillHeld = await ok(farm, 'GET', `/api/farmHarvest/harvests/${b.id}`);
    expect(stillHeld.release).toBe('held');
    expect(stillHeld.releaseNote).toContain('2034-06-16 的本批次农残检测不合格');
    expect((await sell(b.id)).status).toBe(40001);
    expect((await code(b.id)).status).toBe(40001);

    // Its own passing test after the harvest releases it: the code, the page and the sale follow.
    await test({ harvestId: b.id, testedOn: '2034-06-18' });
    const released = await ok(farm, 'GET', `/api/farmHarvest/harvests/${b.id}`);
    expect(released).toMatchObject({ safety: 'inInterval', release: 'tested', releaseTestOn: '2034-06-18' });
    const made = await code(b.id);
    expect(made.status, made.raw.body).toBe(200);
    expect((await page(made.data.code)).statusCode).toBe(200);
    expect((await sell(b.id)).status).toBe(200);
  });

  it('a batch flagged after its code was made has no public page until released', async () => {
    const b = await ok(farm, 'POST', '/api/farmHarvest/harvests', { groupId: group.id, harvestedOn: '2034-08-20', quantity: 20, unit: '公斤', grade: 'first' });
    const made = (await ok(farm, 'POST', '/api/trackInfoManage/codes', { harvestId: b.id })).code;
    expect((await page(made)).statusCode).toBe(200);
    // A late entry in the ledger: a spray recorded afterwards, dated five days before the harvest.
    const late = await ok(farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'RG-P2', name: '补录杀虫剂', category: 'pesticide', unit: '瓶', safetyIntervalDays: 7 });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockIn', { storeId: store, movedOn: '2034-08-01', lines: [{ materialId: late.id, quantity: 2, unitPrice: 10 }] });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockOut', { storeId: store, movedOn: '2034-08-15', groupId: group.id, lines: [{ materialId: late.id, quantity: 1 }] });
    expect((await ok(farm, 'GET', `/api/farmHarvest/harvests/${b.id}`)).release).toBe('held');
    const hidden = await page(made);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain(b.batchNo);
    await test({ harvestId: b.id, testedOn: '2034-08-21' });
    expect((await page(made)).statusCode).toBe(200);
  });

  it('a holder of farmHarvestIndex:release clears the flag with a reason, audited; nothing else does', async () => {
    const b = await harvestInside('2034-06-16');
    expect((await call(t, provider, 'POST', `/api/farmHarvest/harvests/${b.id}/release`, { reason: '已按标准处理' })).status).toBe(40301);
    const short = await call(t, farm, 'POST', `/api/farmHarvest/harvests/${b.id}/release`, { reason: ' ab ' });
    expect(short.status).toBe(40001);
    expect(short.data.errors).toEqual([{ field: 'reason', message: '请写明放行理由（4–200 字）' }]);
    // Without the element code (an administrator took it away from the role): 40301, nothing written.
    const role = (await t.db.query<{ id: number }>(`SELECT r.id FROM roles r JOIN user_roles ur ON ur.role_id = r.id JOIN users u ON u.id = ur.user_id WHERE u.username = 'farm' LIMIT 1`)).rows[0].id;
    await t.db.query(`UPDATE roles SET elements = array_remove(elements, 'farmHarvestIndex:release') WHERE id = $1`, [role]);
    const without = `Bearer ${await t.login('farm')}`;
    expect((await call(t, without, 'POST', `/api/farmHarvest/harvests/${b.id}/release`, { reason: '没有权限的放行' })).status).toBe(40301);
    await t.db.query(`UPDATE roles SET elements = array_append(elements, 'farmHarvestIndex:release') WHERE id = $1`, [role]);
    const cleared = await ok(farm, 'POST', `/api/farmHarvest/harvests/${b.id}/release`, { reason: '整批已销毁重新采样前的样品，经负责人确认' });
    expect(cleared).toMatchObject({ release: 'cleared', releaseNote: `批次 ${b.batchNo} 在安全间隔期内采收，未经检测由人工放行：整批已销毁重新采样前的样品，经负责人确认` });
    const log = await t.db.query<{ changes: Body }>(`SELECT changes FROM operation_log WHERE action = 'harvests.release' AND record_id = $1`, [String(b.id)]);
    expect(log.rows.length).toBe(1);
    expect(JSON.stringify(log.rows[0].changes)).toContain('放行测试杀菌剂');
    expect((await sell(b.id)).status).toBe(200);
    const again = await call(t, farm, 'POST', `/api/farmHarvest/harvests/${b.id}/release`, { reason: '再次放行试试' });
    expect(again.status).toBe(40001);
    expect(again.data.errors[0].message).toBe(`批次 ${b.batchNo} 没有被安全间隔期扣留，不需要放行`);
  });

  it('the seed: a flagged batch waits for its test, a flagged batch released by a later test was sold', async () => {
    const rows = (await ok(farm, 'GET', '/api/farmHarvest/harvests/page?pageSize=100&to=2030-01-01')).rows as Body[];
    expect(rows.filter((r) => r.release === 'held' && !r.recalled).length).toBeGreaterThanOrEqual(1);
    const provRows = (await ok(provider, 'GET', '/api/farmHarvest/harvests/page?pageSize=200&to=2030-01-01')).rows as Body[];
    const tested = provRows.filter((r) => r.release === 'tested');
    expect(tested.length).toBeGreaterThanOrEqual(1);
    for (const r of tested) expect(r.sold).toBeGreaterThan(0);
    // No held batch that is not recalled has a public page.
    for (const r of provRows.filter((x) => x.release === 'held' && !x.recalled && x.traceCode)) expect((await page(String(r.traceCode))).statusCode).toBe(404);
  });
});
