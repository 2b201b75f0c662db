/**
 * JSON Schema fragments of the administration routes. The bounds of ids, pages and
 * plain text are the legacy API's (server/legacy/schemas.ts), so that every
 * administration call refuses the same input the same way.
 */
import * as s from '../legacy/schemas.ts';
import { envelopeSchema, errorReplySchema, pageSchema } from '../resources/page.ts';

export const { id, strictObject, pagedQuery, offsetOf } = s;
export type PageParams = s.PageParams;
export type Page<T> = s.Page<T>;

/** A text in the three console languages, each required. */
export const localText = (maxLength: number) =>
  strictObject(
    {
      zh: s.text(maxLength, 1),
      en: s.text(maxLength, 1),
      es: s.text(maxLength, 1),
    },
    ['zh', 'en', 'es'],
  );

/** Menu codes and element codes as the menu tree writes them (runtime/schema/menus.schema.json). */
export const menuCode = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9-]{0,63}$' } as const;
export const elementCode = { type: 'string', minLength: 3, maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9-]{0,63}:[a-z][A-Za-z0-9]{0,31}$' } as const;
export const version = { type: 'integer', minimum: 1, maximum: 2147483647, description: 'The version read; a stale one is refused with 40001.' } as const;

export const errors = { 400: errorReplySchema, 401: errorReplySchema, 403: errorReplySchema, 404: errorReplySchema };
const anyObject = { type: 'object', additionalProperties: true } as const;
export const okObject = (row: Record<string, unknown> = anyObject) => ({ 200: envelopeSchema(row), ...errors });
export const okPage = (row: Record<string, unknown> = anyObject) => ({ 200: envelopeSchema(pageSchema(row)), ...errors });
export const okArray = (row: Record<string, unknown> = anyObject) => ({ 200: envelopeSchema({ type: 'array', items: row }), ...errors });

/** One page of rows held in memory (registry, trace), in the page shape. */
export function slicePage<T>(rows: T[], p: PageParams): Page<T> {
  return s.page(rows.slice(offsetOf(p), offsetOf(p) + p.pageSize), rows.length, p);
}

export const page = s.page;
