/**
 * The one reply shape of every paged query in the product:
 *
 *   { status: 200, message, data: { rows: [...], total, pageIndex, pageSize } }
 *
 * `total` counts every row that matches the filters (not just this page); `pageIndex`
 * starts at 1; `pageSize` is at most MAX_PAGE_SIZE. A page past the end has no rows and
 * the true total. A route that stops counting at a cap (the resource engine does, see
 * COUNT_CAP) says so with `totalExact: false`, and `total` is then a lower bound; the field
 * is absent when the total is exact, so the other paged replies are unchanged. These helpers give routes the JSON Schemas of that shape, so that the
 * OpenAPI document describes it once per route without anyone writing it by hand.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../runtime/schema/resource.ts';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };
export const MAX_PAGE_INDEX = 1_000_000;

/**
 * The resource engine counts matches up to this many (or to the end of the page asked
 * for, when that is further). Counting costs one heap visit per match — an expression
 * index cannot answer a count on its own — so an exact count over 100,000 matches
 * would cost more than everything else of the request together.
 */
export const COUNT_CAP = 10_000;

export interface Page<T> {
  rows: T[];
  total: number;
  pageIndex: number;
  pageSize: number;
  /** Present (false) only when counting stopped at a cap: `total` is then a lower bound. */
  totalExact?: false;
}

export const pageParamsSchema = {
  pageIndex: { type: 'integer', minimum: 1, maximum: MAX_PAGE_INDEX, description: 'Page number, from 1 (default 1).' },
  pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, description: `Rows per page, at most ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` },
} as const;

export function envelopeSchema(data: Record<string, unknown>, description?: string): Record<string, unknown> {
  return {
    type: 'object',
    description,
    required: ['status', 'message', 'data'],
    properties: {
      status: { type: 'integer', description: '200 on success (spec §9).' },
      message: { type: 'string' },
      data,
    },
  };
}

export function pageSchema(row: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    required: ['rows', 'total', 'pageIndex', 'pageSize'],
    properties: {
      rows: { type: 'array', items: row },
      total: { type: 'integer', description: 'Rows matching the filters, over all pages.' },
      pageIndex: { type: 'integer' },
      pageSize: { type: 'integer' },
      totalExact: {
        type: 'boolean',
        const: false,
        description: 'Present only when counting stopped at a cap: there are more than `total` matching rows. Absent when `total` is exact.',
      },
    },
  };
}

/** The refusal envelope: 40001 with field errors, 40101, 40301, 40401. */
export const errorReplySchema = envelopeSchema(
  {
    type: ['object', 'null'],
    properties: {
      errors: {
        type: 'array',
        items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
      },
    },
  },
  'A refusal: status 40001 (invalid input, data.errors per field, in the request language), 40101 (logged out), 40301 (no authority), 40401 (no such record in your scope).',
);

export function pageOf<T>(rows: T[], total: number, pageIndex: number, pageSize: number, totalExact = true): Page<T> {
  return totalExact ? { rows, total, pageIndex, pageSize } : { rows, total, pageIndex, pageSize, totalExact: false };
}
