/**
 * Declared state transitions through the API (planting rules: draft → awaiting review →
 * published, returned with a reason, withdrawn), on every engine: each transition
 * allowed from its states and refused from the others, by element code, by version and
 * by reason; the state field unwritable through create and update; the row's hint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { transitionPath } from '../../runtime/protocol/operations.ts';
import { call, docs, fingerprint, makeUser, recordOf, someRow, variant, type Body } from './resource-fixtures.ts';

const rules = docs.find((d) => d.name === 'plantRules')!;
const codes = (els: string[]) => ({ menus: ['plantRules', 'cropsManager'], elements: els.map((e) => `plantRules:${e}`) });

describe.each(engines())('state transitions on $name', (engine) => {
  let t: TestApp;
  let reviewer: string;
  let editor: string;
  let stranger: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    reviewer = (await makeUser(t, { ...codes(['add', 'edit', 'delete', 'submit', 'review']), platform: true })).token;
    editor = (await makeUser(t, codes(['add', 'edit', 'submit']))).token;
    // Every element code, but another menu: the transition needs the authority too.
    stranger = (await makeUser(t, { menus: ['cropsManager'], elements: codes(['submit', 'review']).elements })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const go = (token: string, row: Body, name: string, extra: Body = {}, lang = 'zh') =>
    call(t, token, 'POST', transitionPath(rules, row.id as number, name), { version: row.version, ...extra }, lang);

  async function draft(tag: string): Promise<Body> {
    // variant() leaves out the state and the reason: the engine sets them on a new record.
    const body = variant(rules, await someRow(t, reviewer, rules), tag);
    const made = await call(t, editor, 'POST', rules.basePath, body);
    expect(made.status, made.message).toBe(200);
    return made.data;
  }

  it('creates in the initial state and refuses another state on its field; nothing is stored', async () => {
    const row = await draft('初始状态');
    expect(row.status).toBe(0);
    expect(row._transitions).toEqual(['submit']);
    const before = await fingerprint(t.db);
    const body = { ...recordOf(rules, row), name: `${row.name}2`, status: 2 };
    for (const lang of ['zh', 'en', 'es']) {
      const r = await call(t, editor, 'POST', rules.basePath, body, lang);
      expect([r.http, r.status]).toEqual([400, 40001]);
      expect(r.data.errors.map((e: { field: string }) => e.field)).toEqual(['status']);
    }
    const r = await call(t, editor, 'POST', rules.basePath, body, 'en');
    expect(r.data.errors[0].message).toBe('«Status» changes only through its actions (Submit for review, Approve, Return, Withdraw)');
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('keeps the stored state through update: the same state passes, another is refused on the field', async () => {
    const row = await draft('更新状态');
    const same = await call(t, editor, 'PUT', `${rules.basePath}/${row.id}`, { ...row, region: '黑龙江' });
    expect(same.status).toBe(200);
    expect(same.data.status).toBe(0);
    const before = await fingerprint(t.db);
    const other = await call(t, editor, 'PUT', `${rules.basePath}/${row.id}`, { ...same.data, status: 2 });
    expect([other.status, other.data.errors[0].field]).toEqual([40001, 'status']);
    const reason = await call(t, editor, 'PUT', `${rules.basePath}/${row.id}`, { ...same.data, rejectReason: '自己写的' });
    expect([reason.status, reason.data.errors[0].field]).toEqual([40001, 'rejectReason']);
    expect(await fingerprint(t.db)).toBe(before);
    // Leaving the state out keeps it too.
    const { status: _omitted, ...rest } = same.data;
    const kept = await call(t, editor, 'PUT', `${rules.basePath}/${row.id}`, rest);
    expect([kept.status, kept.data.status]).toEqual([200, 0]);
  });

  it('walks draft → review → published → draft, each step logged with its changes, the hint following the state and the caller', async () => {
    let row = await draft('完整流程');
    const submitted = await go(editor, row, 'submit');
    expect(submitted.status, submitted.message).toBe(200);
    expect([submitted.data.status, submitted.data.version]).toEqual([1, (row.version as number) + 1]);
    expect(submitted.data._transitions).toEqual([]);
    row = (await call(t, reviewer, 'GET', `${rules.basePath}/${row.id}`)).data;
    expect(row._transitions).toEqual(['approve', 'reject']);
    const page = await call(t, reviewer, 'GET', `${rules.basePath}/page?pageSize=100&sort=-id`);
    expect(page.data.rows.find((r: Body) => r.id === row.id)._transitions).toEqual(['approve', 'reject']);

    const approved = await go(reviewer, row, 'approve');
    expect([approved.status, approved.data.status]).toEqual([200, 2]);
    expect(approved.data._transitions).toEqual(['withdraw']);
    const withdrawn = await go(reviewer, approved.data, 'withdraw');
    expect([withdrawn.status, withdrawn.data.status]).toEqual([200, 0]);

    const { rows } = await t.db.query<{ action: string; changes: { version: unknown; fields: Record<string, unknown> } }>(
      `SELECT action, changes FROM operation_log WHERE resource = 'plantRules' AND record_id = $1 ORDER BY id`,
      [String(row.id)],
    );
    expect(rows.map((r) => r.action)).toEqual(['plantRules.create', 'plantRules.submit', 'plantRules.approve', 'plantRules.withdraw']);
    expect(rows[2].changes.fields).toEqual({ status: { from: 1, to: 2 } });
    expect(rows[2].changes.version).toEqual({ from: row.version, to: (row.version as number) + 1 });
  });

  it('refuses a transition the state does not allow, naming the state and the action in the caller’s language; nothing changes', async () => {
    const row = await draft('错误状态');
    const before = await fingerprint(t.db);
    const zh = await go(reviewer, row, 'approve');
    expect([zh.http, zh.status]).toEqual([400, 40001]);
    expect(zh.message).toBe('该记录当前为「草稿」，不能执行「审核通过」');
    expect((await go(reviewer, row, 'approve', {}, 'en')).message).toBe('This record is «Draft», so «Approve» cannot be done now');
    expect((await go(reviewer, row, 'withdraw', {}, 'es')).message).toBe('Este registro está «Borrador», así que ahora no se puede «Retirar»');
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('needs the transition’s element code under the authority (40301 before any other answer)', async () => {
    const row = await draft('无权审核');
    const submitted = (await go(editor, row, 'submit')).data;
    const before = await fingerprint(t.db);
    expect((await go(editor, submitted, 'approve')).status).toBe(40301);
    expect((await go(editor, submitted, 'reject', { reason: '不行' })).status).toBe(40301);
    // Without the menu code, not even a wrong state, a stale version or a missing id is told.
    expect((await go(stranger, submitted, 'approve')).status).toBe(40301);
    expect((await go(stranger, { ...submitted, version: 99 }, 'submit')).status).toBe(40301);
    expect((await go(stranger, { ...submitted, id: 999999 }, 'approve')).status).toBe(40301);
    expect((await call(t, null, 'POST', transitionPath(rules, submitted.id as number, 'approve'), { version: 1 })).status).toBe(40101);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('answers 40401 for a record that does not exist or belongs to another resource, and for an undeclared transition', async () => {
    const row = await draft('不存在');
    expect((await go(reviewer, { ...row, id: 999999 }, 'submit')).status).toBe(40401);
    const crop = await someRow(t, reviewer, docs.find((d) => d.name === 'crops')!);
    expect((await go(reviewer, { ...row, id: crop.id }, 'submit')).status).toBe(40401);
    expect((await go(reviewer, row, 'publish')).status).toBe(40401);
  });

  it('refuses a stale version on the version field', async () => {
    const row = await draft('过期版本');
    const edited = await call(t, editor, 'PUT', `${rules.basePath}/${row.id}`, { ...row, region: '吉林' });
    expect(edited.status).toBe(200);
    const before = await fingerprint(t.db);
    const r = await go(editor, row, 'submit');
    expect([r.status, r.data.errors[0].field]).toEqual([40001, 'version']);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('needs a reason to return a rule, stores it trimmed, and keeps it through later saves', async () => {
    const row = await draft('退回原因');
    const submitted = (await go(editor, row, 'submit')).data;
    const before = await fingerprint(t.db);
    for (const reason of [undefined, '', '   ']) {
      const r = await go(reviewer, submitted, 'reject', reason === undefined ? {} : { reason }, 'en');
      expect([r.status, r.data.errors]).toEqual([40001, [{ field: 'reason', message: 'Give the reason for «Return»' }]]);
    }
    expect((await go(reviewer, submitted, 'reject', { reason: 'x'.repeat(501) })).status).toBe(40001);
    expect((await go(reviewer, submitted, 'reject', { reason: '备注', extra: 1 })).status).toBe(40001);
    expect(await fingerprint(t.db)).toBe(before);
    const returned = await go(reviewer, submitted, 'reject', { reason: '  播期与当地积温不符 ' });
    expect([returned.status, returned.data.status, returned.data.rejectReason]).toEqual([200, 0, '播期与当地积温不符']);
    // The reason stays with the record (a form posts it back unchanged) until the next return.
    const saved = await call(t, editor, 'PUT', `${rules.basePath}/${row.id}`, { ...returned.data, region: '辽宁' });
    expect([saved.status, saved.data.rejectReason]).toEqual([200, '播期与当地积温不符']);
  });
});
