import { describe, expect, it } from 'vitest';
import { ConditionError, conditionFields, evaluate, valueAt, type Condition } from '../../runtime/schema/conditions.ts';

const row = { id: 7, status: 1, name: 'rice', tags: [], owner: { name: 'Li' }, note: '', missing: null, date: '2026-04-01' };

describe('condition evaluator', () => {
  it('compares with every operator', () => {
    const cases: [Condition, boolean][] = [
      [{ field: 'status', op: 'eq', value: 1 }, true],
      [{ field: 'status', op: 'eq', value: '1' }, false],
      [{ field: 'status', op: 'ne', value: 0 }, true],
      [{ field: 'status', op: 'in', value: [0, 1] }, true],
      [{ field: 'status', op: 'notIn', value: [0, 1] }, false],
      [{ field: 'note', op: 'empty' }, true],
      [{ field: 'tags', op: 'empty' }, true],
      [{ field: 'missing', op: 'empty' }, true],
      [{ field: 'absent', op: 'empty' }, true],
      [{ field: 'name', op: 'notEmpty' }, true],
      [{ field: 'id', op: 'gt', value: 6 }, true],
      [{ field: 'id', op: 'lt', value: 7 }, false],
      [{ field: 'id', op: 'gte', value: 7 }, true],
      [{ field: 'id', op: 'lte', value: 6 }, false],
      [{ field: 'date', op: 'gte', value: '2026-01-01' }, true],
      [{ field: 'id', op: 'gt', value: '6' }, false],
      [{ field: 'owner.name', op: 'eq', value: 'Li' }, true],
      [{ field: 'absent', op: 'eq', value: null }, true],
    ];
    for (const [c, expected] of cases) expect(evaluate(c, row), JSON.stringify(c)).toBe(expected);
  });

  it('combines with all, any and not, and an absent condition holds', () => {
    expect(evaluate({ all: [{ field: 'status', op: 'eq', value: 1 }, { field: 'name', op: 'eq', value: 'rice' }] }, row)).toBe(true);
    expect(evaluate({ all: [{ field: 'status', op: 'eq', value: 1 }, { field: 'name', op: 'eq', value: 'corn' }] }, row)).toBe(false);
    expect(evaluate({ any: [{ field: 'status', op: 'eq', value: 0 }, { field: 'name', op: 'eq', value: 'rice' }] }, row)).toBe(true);
    expect(evaluate({ not: { field: 'status', op: 'eq', value: 1 } }, row)).toBe(false);
    expect(evaluate(undefined, row)).toBe(true);
    expect(conditionFields({ all: [{ field: 'a', op: 'empty' }, { not: { any: [{ field: 'b.c', op: 'eq', value: 1 }] } }] })).toEqual(['a', 'b.c']);
  });

  it('treats code-looking strings as data, never code', () => {
    const calls: string[] = [];
    const g = globalThis as Record<string, unknown>;
    const before = g.alert;
    g.alert = (x: string) => calls.push(x);
    try {
      const data = { field: 'alert(1)', script: '<img onerror=alert(1)>' };
      expect(evaluate({ field: 'field', op: 'eq', value: 'alert(1)' }, data)).toBe(true);
      expect(evaluate({ field: 'script', op: 'eq', value: 'alert(1)' }, data)).toBe(false);
      // A field path that reads like an expression is just a property name that is absent.
      expect(evaluate({ field: 'alert(1)', op: 'notEmpty' }, data)).toBe(false);
      expect(evaluate({ field: 'constructor', op: 'notEmpty' }, {})).toBe(false);
      expect(evaluate({ field: '__proto__', op: 'notEmpty' }, {})).toBe(false);
      expect(valueAt({}, 'toString')).toBeUndefined();
      expect(calls).toEqual([]);
    } finally {
      g.alert = before;
    }
  });

  it('refuses malformed conditions instead of guessing', () => {
    expect(() => evaluate({ field: 'status', op: 'matches', value: '.*' } as unknown as Condition, row)).toThrow(ConditionError);
    expect(() => evaluate('status == 1' as unknown as Condition, row)).toThrow(ConditionError);
    let deep: Condition = { field: 'status', op: 'eq', value: 1 };
    for (let i = 0; i < 20; i++) deep = { not: deep };
    expect(() => evaluate(deep, row)).toThrow(/deeper/);
  });
});
