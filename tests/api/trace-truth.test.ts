/**
 * The public trace page tells the truth about its batch (issue 25, docs/harvest-sales-trace.md,
 * "What the page says about tests and safety intervals"): the tests it shows are the batch's
 * own, or its planting group's sampled after the last input applied and before the harvest,
 * each group saying whose they are; never another batch's. Every pesticide applied while the
 * crop grew is listed against the harvest day with its safety interval, in zh, en and es, and
 * a batch harvested inside an interval says so plainly.
 */
import QRCode from 'qrcode';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { publicBaseUrlOf } from '../../server/config.ts';
import { VIEWS_PER_ADDRESS_PER_MINUTE } from '../../server/harvest/trace-page.ts';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';

describe.each(engines())('the trace page’s truth on $name', (engine) => {
  let t: TestApp;
  let farm: string;

  const ok = async (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => {
    const r = await call(t, token, method, url, body);
    expect(r.status, r.raw.body).toBe(200);
    return r.data;
  };
  const page = async (code: string, lang = 'zh') => (await t.app.inject({ method: 'GET', url: `/t/${code}`, headers: { 'accept-language': lang } })).body;

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the seeded batch harvested inside 代森锰锌’s interval says so, and shows no other batch’s test', async () => {
    const { rows } = await t.db.query<{ id: string; batch_no: string; code: string; harvested_on: string; group_id: string }>(
      `SELECT h.id, h.batch_no, c.code, h.harvested_on::text, h.group_id FROM harvests h JOIN trace_codes c ON c.harvest_id = h.id
        WHERE h.farm_id = (SELECT id FROM organisations WHERE name = '禾丰生态农场') ORDER BY h.id`,
    );
    const flagged = [];
    for (const r of rows) {
      const b = await ok(farm, 'GET', `/api/farmHarvest/harvests/${r.id}`);
      if (b.safety === 'inInterval') flagged.push({ ...r, flags: b.safetyFlags, overrideReason: b.safetyOverrideReason });
    }
    expect(flagged.length, JSON.stringify(rows)).toBe(1);
    const [b] = flagged;
    // Recorded as the harvest form now demands: with the override's reason.
    expect(b.overrideReason).toContain('提前抢收');
    const dithane = b.flags.find((f: Body) => String(f.material).startsWith('代森锰锌'));
    expect(dithane, JSON.stringify(b.flags)).toBeDefined();
    expect(b.harvested_on < dithane.safeFrom).toBe(true);
    const zh = await page(b.code);
    expect(zh).toContain(b.batch_no);
    expect(zh).toContain('注意：本批次是在农药安全间隔期内采收的');
    expect(zh).toContain(`${dithane.appliedOn} 施用 代森锰锌 80% 可湿性粉剂，安全间隔期 15 天，应在 ${dithane.safeFrom} 及以后采收；本批次 ${b.harvested_on} 采收`);
    // Every test of another batch (the seed tests each group's first batch) stays off this page.
    const others = await t.db.query<{ tested_on: string; title: string }>(
      `SELECT data->>'testedOn' AS tested_on, data->>'title' AS title FROM resource_records WHERE resource = 'qualityRecords' AND (data->>'harvestId')::bigint <> $1 AND (data->>'groupId')::bigint = $2`,
      [b.id, b.group_id],
    );
    expect(others.rows.length).toBeGreaterThan(0);
    for (const o of others.rows) expect(zh, o.tested_on).not.toContain(`${o.tested_on} 农残检测`);
    expect(zh).toContain('本批次还没有检测记录。');
    const en = await page(b.code, 'en');
    expect(en).toContain('Warning: this batch was harvested inside a pesticide’s safety interval');
    expect(en).toContain(`days too early`);
    const es = await page(b.code, 'es');
    expect(es).toContain('Atención: este lote se cosechó dentro del plazo de seguridad');
  });

  it('shows the batch’s own tests and its group’s after the last input, says whose, and lists every pesticide against the harvest', async () => {
    const group = (await ok(farm, 'GET', '/api/farmPlantGroup/groups/page?pageSize=1&sort=id')).rows[0];
    const stores = await ok(farm, 'GET', '/api/farmMaterials/stores/page?pageSize=1&sort=id');
    const store = stores.rows[0].id;
    const pesticide = await ok(farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'TT-P1', name: '测试杀菌剂甲', category: 'pesticide', unit: '瓶', safetyIntervalDays: 10 });
    const unknown = await ok(farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'TT-P2', name: '未登记间隔农药乙', category: 'pesticide', unit: '瓶' });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockIn', { storeId: store, movedOn: '2033-05-01', lines: [{ materialId: pesticide.id, quantity: 5, unitPrice: 20 }, { materialId: unknown.id, quantity: 5, unitPrice: 20 }] });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockOut', { storeId: store, movedOn: '2033-06-01', groupId: group.id, lines: [{ materialId: pesticide.id, quantity: 1 }] });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockOut', { storeId: store, movedOn: '2033-06-14', groupId: group.id, lines: [{ materialId: unknown.id, quantity: 1 }] });
    const earlier = await ok(farm, 'POST', '/api/farmHarvest/harvests', { groupId: group.id, harvestedOn: '2033-06-12', quantity: 10, unit: '公斤', grade: 'first' });
    const b = await ok(farm, 'POST', '/api/farmHarvest/harvests', { groupId: group.id, harvestedOn: '2033-06-20', quantity: 30, unit: '公斤', grade: 'first' });
    expect(b.safety).toBe('ok');
    const record = (title: string, testedOn: string, extra: Body) =>
      ok(farm, 'POST', '/api/qualityandSafety/records', { kind: 'residueTest', title, testedOn, agency: '县检测站', conclusion: 'pass', ...extra });
    await record('本批自检', '2033-06-21', { harvestId: b.id, groupId: group.id });
    await record('组抽检-最后投入后', '2033-06-17', { groupId: group.id });
    await record('组抽检-投入前', '2033-06-13', { groupId: group.id });
    await record('组抽检-采收后', '2033-06-25', { groupId: group.id });
    await record('前一批的检测', '2033-06-12', { harvestId: earlier.id, groupId: group.id });
    const code = (await ok(farm, 'POST', '/api/trackInfoManage/codes', { harvestId: b.id })).code;
    const zh = await page(code);
    expect(zh).toContain('<h3>本批次的检测</h3><ul><li>2033-06-21 农残检测：本批自检');
    expect(zh).toContain('同一种植组的检测（在最后一次施用投入品 2033-06-14 之后、本批次采收之前抽样，不是专门针对本批次）</h3><ul><li>2033-06-17 农残检测：组抽检-最后投入后');
    for (const hidden of ['组抽检-投入前', '组抽检-采收后', '前一批的检测', earlier.batchNo]) expect(zh, hidden).not.toContain(hidden);
    expect(zh).toContain('✓</span> 2033-06-01 施用 测试杀菌剂甲，安全间隔期 10 天，2033-06-11 起可以采收；本批次 2033-06-20 采收，已过安全间隔期。');
    expect(zh).toContain('2033-06-14 施用 未登记间隔农药乙，农场没有登记它的安全间隔期，无法核对。');
    expect(zh).not.toContain('注意：本批次是在农药安全间隔期内采收的');
    // Not every pesticide's interval is known, so the page does not claim they all passed.
    expect(zh).not.toContain('生长期内施用的每一种农药');
    const en = await page(code, 'en');
    expect(en).toContain('Tests of the planting group this batch comes from (sampled after the last input was applied on 2033-06-14');
    expect(en).toContain('测试杀菌剂甲 applied on 2033-06-01; its safety interval is 10 days, safe to harvest from 2033-06-11; this batch was harvested on 2033-06-20, after the interval.');
    const es = await page(code, 'es');
    expect(es).toContain('Análisis de este lote');
    expect(es).toContain('la granja no registró su plazo de seguridad');
    // The earlier batch, harvested before the second application, sees only the first in its window.
    const earlierCode = (await ok(farm, 'POST', '/api/trackInfoManage/codes', { harvestId: earlier.id })).code;
    const earlierPage = await page(earlierCode);
    expect(earlierPage).toContain('<h3>本批次的检测</h3><ul><li>2033-06-12 农残检测：前一批的检测');
    expect(earlierPage).not.toContain('本批自检');
    expect(earlierPage).not.toContain('未登记间隔农药乙');
    expect(earlierPage).not.toContain('组抽检');
  });

  it('the QR image encodes the configured public address, whatever Host or X-Forwarded-* say; unset, it is refused', async () => {
    const code = (await t.db.query<{ code: string }>('SELECT code FROM trace_codes ORDER BY harvest_id LIMIT 1')).rows[0].code;
    const expected = await QRCode.toString(`https://trace.farm.test/t/${code}`, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    for (const headers of [{}, { host: 'evil.example' }, { host: '192.168.1.20:8080' }, { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }]) {
      const qr = await t.app.inject({ method: 'GET', url: `/t/${code}/qr.svg`, headers });
      expect(qr.statusCode).toBe(200);
      expect(qr.body, JSON.stringify(headers)).toBe(expected);
      expect(qr.headers['cache-control']).toBe('public, max-age=86400');
    }
    expect(publicBaseUrlOf('https://trace.example.com/farm/')).toBe('https://trace.example.com/farm');
    expect(publicBaseUrlOf('')).toBeUndefined();
    for (const bad of ['trace.example.com', 'javascript:alert(1)', 'https://trace.example.com/?x=1', 'https://user:pw@trace.example.com']) expect(() => publicBaseUrlOf(bad), bad).toThrow(/PUBLIC_BASE_URL/);
    const bare = await createTestApp(engine, { publicBaseUrl: undefined });
    try {
      // A database of its own on PostgreSQL (a schema per app): its own seeded code.
      const own = (await bare.db.query<{ code: string }>('SELECT code FROM trace_codes ORDER BY harvest_id LIMIT 1')).rows[0].code;
      const refused = await bare.app.inject({ method: 'GET', url: `/t/${own}/qr.svg`, headers: { host: 'evil.example', 'accept-language': 'en' } });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.body).toContain('The QR code cannot be made yet: the server has no public address configured (PUBLIC_BASE_URL');
      expect(refused.body).not.toContain('evil.example');
    } finally {
      await bare.close();
    }
  });

  it('a harvest inside a safety interval is refused naming the input and the safe day, unless an override holder says why (audited)', async () => {
    const group = (await ok(farm, 'GET', '/api/farmPlantGroup/groups/page?pageSize=1&sort=id')).rows[0];
    const store = (await ok(farm, 'GET', '/api/farmMaterials/stores/page?pageSize=1&sort=id')).rows[0].id;
    const pesticide = await ok(farm, 'POST', '/api/farmMaterials/list', { goodsCode: 'TT-P3', name: '测试杀虫剂丙', category: 'pesticide', unit: '瓶', safetyIntervalDays: 7 });
    await ok(farm, 'POST', '/api/farmMaterials/movements/stockIn', { storeId: store, movedOn: '2034-07-01', lines: [{ materialId: pesticide.id, quantity: 2, unitPrice: 20 }] });
    const out = await ok(farm, 'POST', '/api/farmMaterials/movements/stockOut', { storeId: store, movedOn: '2034-07-10', groupId: group.id, lines: [{ materialId: pesticide.id, quantity: 1 }] });
    const body = { groupId: group.id, harvestedOn: '2034-07-15', quantity: 12, unit: '公斤', grade: 'first' };
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM harvests')).rows[0].n;
    const before = await count();
    const sentences = {
      zh: `测试杀虫剂丙 于 2034-07-10 施用（${out.number}），安全间隔期 7 天，这个种植组 2034-07-17 起才能采收`,
      en: `测试杀虫剂丙 was applied on 2034-07-10 (${out.number}); its safety interval is 7 days, so this planting group can be harvested from 2034-07-17`,
      es: `测试杀虫剂丙 se aplicó el 2034-07-10 (${out.number}); su plazo de seguridad es de 7 días, así que este grupo se puede cosechar a partir del 2034-07-17`,
    };
    for (const [lang, sentence] of Object.entries(sentences)) {
      const refused = await call(t, farm, 'POST', '/api/farmHarvest/harvests', body, lang);
      expect(refused.status, refused.raw.body).toBe(40001);
      expect(refused.data.errors).toEqual([{ field: 'harvestedOn', message: sentence }]);
    }
    expect(await count()).toBe(before);
    // On the first safe day it goes through without a word.
    expect((await ok(farm, 'POST', '/api/farmHarvest/harvests', { ...body, harvestedOn: '2034-07-17' })).safety).toBe('ok');
    // A reason where no interval is broken is refused: an override is never recorded for nothing.
    const needless = await call(t, farm, 'POST', '/api/farmHarvest/harvests', { ...body, harvestedOn: '2034-07-18', safetyOverrideReason: '无需放行' });
    expect(needless.status).toBe(40001);
    expect(needless.data.errors[0].field).toBe('safetyOverrideReason');
    // Without the element code the override is forbidden, nothing written.
    const roles = await t.db.query<{ id: number }>(`SELECT ur.role_id AS id FROM user_roles ur JOIN users u ON u.id = ur.user_id WHERE u.username = 'farm'`);
    const ids = roles.rows.map((r) => r.id);
    await t.db.query(`UPDATE roles SET elements = array_remove(elements, 'farmHarvestIndex:safetyOverride') WHERE id = ANY($1::int[])`, [ids]);
    const withoutCode = await call(t, farm, 'POST', '/api/farmHarvest/harvests', { ...body, safetyOverrideReason: '寒潮前抢收' });
    await t.db.query(`UPDATE roles SET elements = array_append(elements, 'farmHarvestIndex:safetyOverride') WHERE id = ANY($1::int[])`, [ids]);
    expect(withoutCode.status).toBe(40301);
    expect(await count()).toBe(before + 1);
    // With it: recorded, flagged, the reason kept on the batch and in the operation log.
    const overridden = await ok(farm, 'POST', '/api/farmHarvest/harvests', { ...body, safetyOverrideReason: '寒潮前抢收' });
    expect(overridden).toMatchObject({ safety: 'inInterval', safetyOverrideReason: '寒潮前抢收' });
    const log = await t.db.query<{ changes: Body }>(`SELECT changes FROM operation_log WHERE action = 'harvests.safetyOverride' AND record_id = $1`, [String(overridden.id)]);
    expect(log.rows.length).toBe(1);
    expect(log.rows[0].changes).toMatchObject({ batchNo: overridden.batchNo, reason: '寒潮前抢收', intervals: [{ movement: out.number, material: '测试杀虫剂丙', appliedOn: '2034-07-10', safeFrom: '2034-07-17' }] });
  });

  it('a scan counts once per visitor and day, and one address is limited per minute (clock fixed)', async () => {
    const code = (await t.db.query<{ code: string }>('SELECT code FROM trace_codes ORDER BY harvest_id DESC LIMIT 1')).rows[0].code;
    const scans = async () => (await t.db.query<{ scans: number }>('SELECT scans FROM trace_codes WHERE code = $1', [code])).rows[0].scans;
    const visit = (ip: string, agent: string, lang = 'zh') => t.app.inject({ method: 'GET', url: `/t/${code}`, remoteAddress: ip, headers: { 'user-agent': agent, 'accept-language': lang } });
    const start = await scans();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-03-01T10:00:00Z'));
    for (let i = 0; i < 3; i++) expect((await visit('198.51.100.7', 'phone-1')).statusCode).toBe(200);
    expect(await scans()).toBe(start + 1);
    await Promise.all(Array.from({ length: 8 }, () => visit('198.51.100.7', 'phone-2')));
    expect(await scans()).toBe(start + 2);
    await visit('198.51.100.8', 'phone-1');
    expect(await scans()).toBe(start + 3);
    // The page shows the count it just made.
    expect((await visit('198.51.100.9', 'phone-1')).body).toContain(`本码已被查询 ${start + 4} 次`);
    // The next day the same visitor counts again, and yesterday's visits are gone.
    vi.setSystemTime(new Date('2030-03-02T00:00:05Z'));
    await visit('198.51.100.7', 'phone-1');
    expect(await scans()).toBe(start + 5);
    expect((await t.db.query(`SELECT 1 FROM trace_scans WHERE day < '2030-03-02'`)).rows).toEqual([]);
    // A flood from one address: exactly the limit passes within the minute, the rest are told to wait.
    vi.setSystemTime(new Date('2030-03-02T10:00:00Z'));
    const flood = await Promise.all(Array.from({ length: VIEWS_PER_ADDRESS_PER_MINUTE + 5 }, () => visit('203.0.113.50', 'bot', 'en')));
    expect(flood.filter((r) => r.statusCode === 200).length).toBe(VIEWS_PER_ADDRESS_PER_MINUTE);
    const limited = flood.filter((r) => r.statusCode === 429);
    expect(limited.length).toBe(5);
    expect(limited[0].body).toContain('Too many requests from your network; please try again in a minute.');
    expect((await t.app.inject({ method: 'GET', url: `/t/${code}/qr.svg`, remoteAddress: '203.0.113.50' })).statusCode).toBe(429);
    expect((await visit('203.0.113.51', 'phone-1')).statusCode).toBe(200);
    vi.setSystemTime(new Date('2030-03-02T10:01:00Z'));
    expect((await visit('203.0.113.50', 'bot')).statusCode).toBe(200);
    expect((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM trace_page_hits WHERE minute < '2030-03-02T10:01:00Z'`)).rows[0].n).toBe(0);
  });
});
