import { describe, expect, it } from 'vitest';
import { actionsWidth, columnType, columnWidth, hiddenByWidth, textWidth } from '../../runtime/screens/column-layout.ts';
import type { Action, Column } from '../../runtime/schema/screen.ts';

const col = (c: Partial<Column> & { field: string }): Column => c as Column;

describe('column widths', () => {
  it('never clips a date or a time, whatever width was declared', () => {
    const at = col({ field: 'createdAt', render: 'datetime', width: 100 });
    expect(columnWidth(at, undefined, '创建时间')).toBeGreaterThanOrEqual(textWidth('2026-11-23 11:24:42') + 24);
    const fromSchema = col({ field: 'updatedAt' });
    expect(columnType(fromSchema, { type: 'string', format: 'date-time' } as never)).toBe('datetime');
    expect(columnWidth(fromSchema, { type: 'string', format: 'date-time' } as never, 'Updated')).toBe(columnWidth(at, undefined, 'Updated'));
    expect(columnWidth(col({ field: 'd', render: 'date', width: 60 }), undefined, 'D')).toBeGreaterThanOrEqual(textWidth('2026-11-23') + 24);
  });

  it('keeps a declared width for other columns, but never narrower than the header', () => {
    expect(columnWidth(col({ field: 'name', width: 200 }), undefined, '名称')).toBe(200);
    expect(columnWidth(col({ field: 'name', width: 40 }), undefined, 'A very long English header')).toBeGreaterThan(textWidth('A very long English header'));
    expect(columnWidth(col({ field: 'n', render: 'number' }), undefined, 'N')).toBe(96);
    expect(columnWidth(col({ field: 'n', render: 'number', sortable: true }), undefined, 'Nombre de la columna')).toBe(textWidth('Nombre de la columna') + 44);
  });

  it('measures Chinese characters wider than Latin ones', () => {
    expect(textWidth('状态')).toBe(28);
    expect(textWidth('ab')).toBeLessThan(textWidth('状态'));
  });
});

describe('narrow screens', () => {
  const cols = [col({ field: 'name', priority: 1 }), col({ field: 'phone' }), col({ field: 'status', priority: 1 }), col({ field: 'note', priority: 3 })];
  it('keeps priority 1 under 1024 px, hides priority 3 under 1600 px, shows all from 1600 px', () => {
    expect([...hiddenByWidth(cols, 800)]).toEqual(['phone', 'note']);
    expect([...hiddenByWidth(cols, 1280)]).toEqual(['note']);
    expect([...hiddenByWidth(cols, 1440)]).toEqual(['note']);
    expect([...hiddenByWidth(cols, 1600)]).toEqual([]);
  });
  it('keeps the first two columns when none is declared essential', () => {
    expect([...hiddenByWidth([col({ field: 'a' }), col({ field: 'b' }), col({ field: 'c' })], 800)]).toEqual(['c']);
  });
});

describe('the action column', () => {
  const a = (zh: string, icon?: string): Action => ({ kind: 'navigate', label: { zh, en: zh, es: zh }, icon }) as unknown as Action;
  const label = (x: Action) => (x.label as { zh: string }).zh;
  it('holds two buttons and «more», not every action', () => {
    const four = [a('查看'), a('编辑'), a('删除'), a('重置密码')];
    const two = actionsWidth(four.slice(0, 2), label, '更多', 2);
    const all = actionsWidth(four, label, '更多', 2);
    expect(all).toBeGreaterThan(two);
    expect(all).toBeLessThan(240);
    // Three actions: a menu for one would hide it for nothing.
    expect(actionsWidth(four.slice(0, 3), label, '更多', 2)).toBeGreaterThan(two);
    expect(actionsWidth([], label, '更多', 2)).toBe(0);
  });
});
