/**
 * Rules every value that arrives from outside obeys, whatever field it fills (issue 24,
 * docs/validation.md "Rules of every field"): a text holds no control character, a number
 * is finite. They are two ajv keywords that `withInputRules` puts on every string and
 * number of a schema, so that one walk hardens a whole schema and the message generator
 * (messages.ts) says the same sentence on the server and in a form.
 *
 * Pure code (no React, no node modules), shared by the server (every route's schemas, the
 * resource engine's records and imports) and the console (the forms' validator).
 */
import type Ajv from 'ajv';

/**
 * The C0 control characters other than tab, line feed and carriage return: NUL, bell,
 * backspace, escape… Nobody types them; they truncate text in C libraries, PostgreSQL
 * refuses NUL, and terminals and spreadsheets act on them. A line break is text (a note
 * has lines; a textarea's CRLF is a line break), so tab, LF and CR stay allowed.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/** Whether a text holds a control character that no field accepts. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** On a string schema: the value holds no CONTROL_CHARACTER. */
export const PLAIN_TEXT_KEYWORD = 'x-plainText';
/**
 * On a number schema: the value is finite. ajv coerces the query text "1e400" to
 * Infinity and then skips minimum and maximum for a number that is not finite, so a
 * page size of 1e400 passed every bound; this keyword runs on the coerced value.
 */
export const FINITE_KEYWORD = 'x-finite';

/** Declares both keywords on an ajv instance (the shared one, Fastify's, rjsf's). */
export function addInputKeywords<A extends Ajv>(ajv: A): A {
  if (!ajv.getKeyword(PLAIN_TEXT_KEYWORD)) {
    ajv.addKeyword({ keyword: PLAIN_TEXT_KEYWORD, type: 'string', schemaType: 'boolean', validate: (on: boolean, data: string) => !on || !CONTROL_CHARACTER.test(data) });
  }
  if (!ajv.getKeyword(FINITE_KEYWORD)) {
    // Untyped: ajv's own number guard skips a value that is not finite, which is the one to catch.
    ajv.addKeyword({ keyword: FINITE_KEYWORD, schemaType: 'boolean', validate: (on: boolean, data: unknown) => !on || typeof data !== 'number' || Number.isFinite(data) });
  }
  return ajv;
}

type Json = Record<string, unknown>;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
// `not` is left alone: a rule added under it would turn into its opposite.
const SUBSCHEMAS = ['items', 'additionalProperties', 'unevaluatedProperties', 'contains', 'if', 'then', 'else'] as const;

const isSchema = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy of `schema` where every string subschema (not a list of fixed values) carries
 * PLAIN_TEXT_KEYWORD and every number or integer FINITE_KEYWORD. Idempotent; a schema
 * that is not an object (true, false) is returned as it is.
 */
export function withInputRules<T>(schema: T): T {
  if (!isSchema(schema)) return schema;
  const out: Json = { ...schema };
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes('string') && !out.enum && !('const' in out)) out[PLAIN_TEXT_KEYWORD] = true;
  if (types.includes('number') || types.includes('integer')) out[FINITE_KEYWORD] = true;
  for (const key of SUBSCHEMA_MAPS) {
    const map = out[key];
    if (isSchema(map)) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, withInputRules(v)]));
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((v) => withInputRules(v));
  }
  for (const key of SUBSCHEMAS) {
    const sub = out[key];
    if (Array.isArray(sub)) out[key] = sub.map((v) => withInputRules(v));
    else if (isSchema(sub)) out[key] = withInputRules(sub);
  }
  return out as T;
}
