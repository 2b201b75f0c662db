/**
 * Issue 24 item 3: control characters (NUL and the other C0 controls but tab, line feed
 * and carriage return) are refused in every text field, with a sentence in the caller's
 * language on the field, and nothing is written: a resource record, a transition's reason,
 * a hand-written route's body, query strings (declared or not), an import's cells. A
 * number that is not finite (the query text 1e400) is refused the same way. Tab and line
 * breaks are text and stay. On every engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { transitionPath } from '../../runtime/protocol/operations.ts';
import { call, docs, fingerprint, makeUser, variant, someRow, type Body } from './resource-fixtures.ts';

const LIST = '/api/farmMaterials/list';
const SENTENCE = {
  zh: '农资名称不能包含控制字符（如 NUL 等不可见字符）',
  en: 'Material name cannot contain control characters (invisible characters such as NUL)',
  es: 'Nombre del insumo no puede contener caracteres de control (caracteres invisibles como NUL)',
};
const material = (name: string, remark = '') => ({ goodsCode: `CC-${Math.random().toString(36).slice(2, 8)}`, name, category: 'fertilizer', unit: '袋', remark });

describe.each(engines())('control characters on $name', (engine) => {
  let t: TestApp;
  let farm: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
  });
  afterAll(() => t?.close());

  it('refuses NUL and the other C0 controls in a record, on the field, in zh, en and es; nothing is written', async () => {
    const before = await fingerprint(t.db);
    for (const lang of ['zh', 'en', 'es'] as const) {
      const r = await call(t, farm, 'POST', LIST, material('尿素\u0000'), lang);
      expect([r.http, r.status]).toEqual([400, 40001]);
      expect(r.data.errors).toEqual([{ field: 'name', message: SENTENCE[lang] }]);
    }
    for (const c of ['\u0001', '\u0007', '\u0008', '\u000B', '\u000C', '\u001B', '\u001F']) {
      const r = await call(t, farm, 'POST', LIST, material(`a${c}b`));
      expect([r.status, r.data.errors[0].field], JSON.stringify(c)).toEqual([40001, 'name']);
    }
    const existing = (await call(t, farm, 'GET', `${LIST}/page?pageSize=1&sort=id`)).data.rows[0] as Body;
    const update = await call(t, farm, 'PUT', `${LIST}/${existing.id}`, { ...existing, remark: 'x\u0000' });
    expect([update.status, update.data.errors.map((e: Body) => e.field)]).toEqual([40001, ['remark']]);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('keeps tab, line feed and carriage return: they are text', async () => {
    const r = await call(t, farm, 'POST', LIST, material('分行\t名称', '第一行\r\n第二行\n第三行'));
    expect(r.status, r.raw.body).toBe(200);
    expect([r.data.name, r.data.remark]).toEqual(['分行\t名称', '第一行\r\n第二行\n第三行']);
  });

  it('refuses a NUL in a transition’s reason (the engine’s and a hand-written route’s body)', async () => {
    const rules = docs.find((d) => d.name === 'plantRules')!;
    const codes = { menus: ['plantRules', 'cropsManager'], elements: ['add', 'edit', 'submit', 'review'].map((e) => `plantRules:${e}`) };
    const reviewer = (await makeUser(t, { ...codes, platform: true })).token;
    const made = await call(t, reviewer, 'POST', rules.basePath, variant(rules, await someRow(t, reviewer, rules), '控制字符'));
    const submitted = (await call(t, reviewer, 'POST', transitionPath(rules, made.data.id, 'submit'), { version: made.data.version })).data;
    const before = await fingerprint(t.db);
    const r = await call(t, reviewer, 'POST', transitionPath(rules, submitted.id, 'reject'), { version: submitted.version, reason: '不行\u0000' }, 'en');
    expect([r.http, r.status, r.data.errors]).toEqual([400, 40001, [{ field: 'reason', message: expect.stringContaining('cannot contain control characters') }]]);
    expect(await fingerprint(t.db)).toBe(before);

    const entries = async () => (await call(t, farm, 'GET', '/api/farmAccounting/entries/page?pageSize=1')).data.total as number;
    const count = await entries();
    const entry = await call(t, farm, 'POST', '/api/farmAccounting/entries', { entryOn: '2032-06-01', direction: 'expense', category: 'labour', amount: 1, note: '工时\u0000' }, 'es');
    expect([entry.http, entry.status, entry.data.errors]).toEqual([400, 40001, [{ field: 'note', message: expect.stringContaining('no puede contener caracteres de control') }]]);
    expect(await entries()).toBe(count);
  });

  it('refuses control characters in query strings, declared or not, and a number that is not finite', async () => {
    const page = await call(t, farm, 'GET', `${LIST}/page?name=${encodeURIComponent('a\u0000')}`);
    expect([page.http, page.status, page.data.errors.map((e: Body) => e.field)]).toEqual([400, 40001, ['name']]);
    const codes = await call(t, farm, 'GET', `/api/trackInfoManage/codes/page?keyword=${encodeURIComponent('\u0007')}`);
    expect([codes.http, codes.status, codes.data.errors.map((e: Body) => e.field)]).toEqual([400, 40001, ['keyword']]);
    // A query no schema describes is held to the same rule.
    const undeclared = await call(t, farm, 'GET', `/api/devices/build?note=${encodeURIComponent('a\u001b[2J')}`, undefined, 'en');
    expect([undeclared.http, undeclared.status, undeclared.data.errors]).toEqual([400, 40001, [{ field: 'note', message: 'This value cannot contain control characters (invisible characters such as NUL)' }]]);
    for (const url of [`${LIST}/page?pageSize=1e400`, '/api/farmAccounting/entries/page?pageIndex=1e400', '/api/devices/commands/page?pageSize=-1e400']) {
      const r = await call(t, farm, 'GET', url, undefined, 'en');
      expect([r.http, r.status], url).toEqual([400, 40001]);
      expect(r.data.errors[0].message, url).toMatch(/must be a whole number|cannot be/);
    }
  });

  it('refuses a control character in an imported cell, on the row and field', async () => {
    const file = ['商品编码 *,农资名称 *,品类 *,单位 *', 'CC-IMP-1,"尿素\u0007",肥料,袋', 'CC-IMP-2,钾肥,肥料,袋'].join('\r\n');
    const before = await fingerprint(t.db);
    const r = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'preview', content: Buffer.from(file).toString('base64') });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data.rows.map((row: Body) => [row.row, row.ok])).toEqual([[2, false], [3, true]]);
    expect(r.data.rows[0].errors).toEqual([{ field: 'name', message: SENTENCE.zh }]);
    expect(await fingerprint(t.db)).toBe(before);
  });
});
