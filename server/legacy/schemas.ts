/**
 * JSON Schema fragments shared by the account, organisation, notice and business routes.
 * Fastify validates with them (errors become 40001 with field details) and the OpenAPI
 * document is generated from them, so every bound lives here once.
 */

import { DEFAULT_PAGE_SIZE, MAX_PAGE_INDEX, MAX_PAGE_SIZE, type Page } from '../../runtime/protocol/page.ts';
import { PHONE_MESSAGES } from '../../runtime/schema/messages.ts';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page };
/** The type of the values a schema accepts (after Fastify's defaults), for helpers that take a validated body. */
export type { FromSchema } from 'json-schema-to-ts';

export const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

/** Letters, digits and `_ . @ -`: no spaces, quotes or markup, so no SQL or script fragment fits. */
export const username = {
  type: 'string',
  minLength: 3,
  maxLength: 32,
  pattern: '^[A-Za-z0-9_.@-]+$',
  'x-title': { zh: '用户名', en: 'Username', es: 'Usuario' },
} as const;

/** Spec 5: 6 to 20 word characters. */
export const password = { type: 'string', minLength: 6, maxLength: 20, pattern: '^\\w{6,20}$' } as const;

/** Spec 5: mainland mobile numbers, with the spec's messages (the console's forms declare the same). */
export const phone = {
  type: 'string',
  minLength: 11,
  maxLength: 11,
  pattern: '^1[3-8]\\d{9}$',
  'x-title': { zh: '手机号', en: 'Phone number', es: 'Número de teléfono' },
  'x-messages': PHONE_MESSAGES,
} as const;

/** Free text shown in the console: no angle brackets, so stored text can never carry markup. */
export const text = (maxLength: number, minLength = 0) =>
  ({ type: 'string', minLength, maxLength, pattern: '^[^<>]*$' }) as const;

export const name = text(64, 1);
export const keyword = text(64);
export const city = text(64);
export const logoUrl = { type: 'string', maxLength: 500, pattern: '^(https?://|/)[^\\s<>"\']*$' } as const;

export const idList = { type: 'array', items: id, minItems: 1, maxItems: 100, uniqueItems: true } as const;
export const roleIds = { type: 'array', items: id, maxItems: 50, uniqueItems: true } as const;

export const pageQuery = {
  pageIndex: { type: 'integer', minimum: 1, maximum: MAX_PAGE_INDEX, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
} as const;

/**
 * A querystring schema: the page parameters plus `props`; nothing else is accepted.
 * `props` and `required` keep their literal types, so the type provider
 * (`FastifyPluginAsyncJsonSchemaToTs`) types `req.query` from the schema.
 */
export function pagedQuery<const P extends Record<string, unknown>, const R extends readonly (keyof P & string)[] = []>(props: P, required?: R) {
  return { type: 'object', additionalProperties: false, required: required ?? ([] as unknown as R), properties: { ...pageQuery, ...props } } as const;
}

/** An object schema that accepts `props` and nothing else; typed like `pagedQuery`. */
export function strictObject<const P extends Record<string, unknown>, const R extends readonly (keyof P & string)[] = []>(props: P, required?: R) {
  return { type: 'object', additionalProperties: false, required: required ?? ([] as unknown as R), properties: props } as const;
}

export interface PageParams {
  pageIndex: number;
  pageSize: number;
}

export function page<T>(rows: T[], total: number, p: PageParams): Page<T> {
  return { rows, total, pageIndex: p.pageIndex, pageSize: p.pageSize };
}

export function offsetOf(p: PageParams): number {
  return (p.pageIndex - 1) * p.pageSize;
}
