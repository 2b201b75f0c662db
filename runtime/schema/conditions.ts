/**
 * The condition language: data, never code. A condition tests fields of one JSON object
 * (a table row, a form's data, a detail record). Strings inside a condition are compared
 * as strings; nothing is parsed, evaluated or looked up outside the data's own properties.
 */

export const COMPARISON_OPS = ['eq', 'ne', 'in', 'notIn', 'empty', 'notEmpty', 'gt', 'lt', 'gte', 'lte'] as const;
export type ComparisonOp = (typeof COMPARISON_OPS)[number];

export type Scalar = string | number | boolean | null;

/** `{field, op, value}`: `field` is a dot path into the data ("status", "owner.name"). */
export type FieldCondition =
  | { field: string; op: 'eq' | 'ne'; value: Scalar }
  | { field: string; op: 'in' | 'notIn'; value: Scalar[] }
  | { field: string; op: 'empty' | 'notEmpty' }
  | { field: string; op: 'gt' | 'lt' | 'gte' | 'lte'; value: number | string };

export interface AllCondition {
  all: Condition[];
}
export interface AnyCondition {
  any: Condition[];
}
export interface NotCondition {
  not: Condition;
}

export type Condition = FieldCondition | AllCondition | AnyCondition | NotCondition;

/** Combinators nest; deeper than this is almost certainly a generated mistake. */
export const MAX_CONDITION_DEPTH = 16;

/**
 * The value at a dot path, reading own properties only: "constructor" or "__proto__"
 * never reach the prototype, and a number segment indexes an array.
 */
export function valueAt(data: unknown, path: string): unknown {
  let cur: unknown = data;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

/** Equality of JSON scalars without coercion: 1 and "1" differ, as they do in the data. */
function same(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  return a === b;
}

/** Ordered comparison only between two numbers or two strings (ISO dates order as strings). */
function compare(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function fieldTest(c: FieldCondition, data: unknown): boolean {
  const v = valueAt(data, c.field);
  switch (c.op) {
    case 'eq':
      return same(v, c.value);
    case 'ne':
      return !same(v, c.value);
    case 'in':
      return Array.isArray(c.value) && c.value.some((x) => same(v, x));
    case 'notIn':
      return Array.isArray(c.value) && !c.value.some((x) => same(v, x));
    case 'empty':
      return isEmpty(v);
    case 'notEmpty':
      return !isEmpty(v);
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte': {
      const d = compare(v, c.value);
      if (d === null) return false;
      return c.op === 'gt' ? d > 0 : c.op === 'lt' ? d < 0 : c.op === 'gte' ? d >= 0 : d <= 0;
    }
    default:
      throw new ConditionError(`unknown operator ${JSON.stringify((c as { op: unknown }).op)}`);
  }
}

export class ConditionError extends Error {}

/**
 * Evaluates `condition` over `data`. An absent condition holds. A malformed condition
 * throws ConditionError (documents are validated before use, so this signals a bug).
 */
export function evaluate(condition: Condition | undefined | null, data: unknown): boolean {
  return evalAt(condition, data, 0);
}

function evalAt(c: Condition | undefined | null, data: unknown, depth: number): boolean {
  if (c === undefined || c === null) return true;
  if (depth > MAX_CONDITION_DEPTH) throw new ConditionError(`conditions nest deeper than ${MAX_CONDITION_DEPTH}`);
  if (typeof c !== 'object' || Array.isArray(c)) throw new ConditionError('a condition is an object');
  if ('all' in c) return c.all.every((x) => evalAt(x, data, depth + 1));
  if ('any' in c) return c.any.some((x) => evalAt(x, data, depth + 1));
  if ('not' in c) return !evalAt(c.not, data, depth + 1);
  if ('field' in c && typeof c.field === 'string') return fieldTest(c, data);
  throw new ConditionError('a condition has field and op, or all, any or not');
}

/** Every field path a condition reads, for linting against a record schema. */
export function conditionFields(c: Condition | undefined | null): string[] {
  if (!c || typeof c !== 'object') return [];
  if ('all' in c) return c.all.flatMap(conditionFields);
  if ('any' in c) return c.any.flatMap(conditionFields);
  if ('not' in c) return conditionFields(c.not);
  return 'field' in c ? [c.field] : [];
}
