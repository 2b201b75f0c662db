import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { filterQuery, filterSpec, type FilterSpec } from '../../runtime/screens/filters.ts';
import { decodeFilterValue, encodeFilterValue, readListState, writeListState } from '../../runtime/screens/list-url.ts';
import type { Filter } from '../../runtime/schema/screen.ts';

const spec = (f: Filter): FilterSpec => filterSpec(f, undefined);
const name = spec({ field: 'name' } as Filter);
const status = spec({ field: 'status', widget: 'select', default: 1 } as Filter);
const types = spec({ field: 'type', op: 'in' } as Filter);
const created = spec({ field: 'createdAt', widget: 'dateRange' } as Filter);
const area = spec({ field: 'area', op: 'range' } as Filter);
const specs = [name, status, types, created, area];
const defaults = { pageSize: 10, sortable: new Set(['name', 'createdAt']) };

describe('a list in the address', () => {
  it('writes the state it was given and reads the same state back', () => {
    const state = {
      values: { name: '水稻 & "x"', status: 2, type: ['a', 3], createdAt: [dayjs('2026-01-02'), dayjs('2026-03-04')], area: [1.5, 9] },
      pageIndex: 3,
      pageSize: 50,
      sorting: [{ id: 'createdAt', desc: true }],
    };
    const params = writeListState(new URLSearchParams('id=7'), state, specs, defaults);
    expect(params.get('id')).toBe('7');
    expect(params.get('filter.name')).toBe('水稻 & "x"');
    expect(params.get('list.page')).toBe('3');
    expect(params.get('list.size')).toBe('50');
    expect(params.get('list.sort')).toBe('-createdAt');
    const back = readListState(new URLSearchParams(params.toString()), specs, defaults);
    expect(back.pageIndex).toBe(3);
    expect(back.pageSize).toBe(50);
    expect(back.sorting).toEqual([{ id: 'createdAt', desc: true }]);
    // The page query is the same as the one the form's own values give.
    expect(filterQuery(specs, back.values)).toEqual(filterQuery(specs, state.values));
    expect(filterQuery(specs, back.values)).toMatchObject({ name: '水稻 & "x"', status: 2, type: ['a', 3], createdAt: '2026-01-02', areaFrom: 1.5, areaTo: 9 });
  });

  it('leaves defaults out, and records a cleared default', () => {
    const plain = writeListState(new URLSearchParams(), { values: { status: 1 }, pageIndex: 1, pageSize: 10, sorting: [] }, specs, defaults);
    expect(plain.toString()).toBe('');
    expect(readListState(plain, specs, defaults)).toEqual({ values: { status: 1 }, pageIndex: 1, pageSize: 10, sorting: [] });
    const cleared = writeListState(new URLSearchParams(), { values: { status: undefined }, pageIndex: 1, pageSize: 10, sorting: [] }, specs, defaults);
    expect(cleared.toString()).toBe('filter.status=');
    expect(readListState(cleared, specs, defaults).values).toEqual({});
  });

  it('a new search replaces the old filters but keeps the page identity', () => {
    const first = writeListState(new URLSearchParams('x=1'), { values: { name: 'a' }, pageIndex: 2, pageSize: 10, sorting: [] }, specs, defaults);
    const second = writeListState(first, { values: { type: ['b'] }, pageIndex: 1, pageSize: 10, sorting: [] }, specs, defaults);
    expect([...second.keys()].sort()).toEqual(['filter.status', 'filter.type', 'x']);
  });

  it('ignores what it cannot read: junk, unsortable columns, bad pages', () => {
    const state = readListState(new URLSearchParams('filter.status={oops&filter.type=5&list.page=-2&list.size=abc&list.sort=secret,-name'), specs, defaults);
    expect(state.values).toEqual({});
    expect(state.pageIndex).toBe(1);
    expect(state.pageSize).toBe(10);
    expect(state.sorting).toEqual([{ id: 'name', desc: true }]);
    expect(decodeFilterValue(created, '"not a date"')).toBeUndefined();
    expect(encodeFilterValue(name, '')).toBeUndefined();
    expect(encodeFilterValue(types, [])).toBeUndefined();
  });
});
