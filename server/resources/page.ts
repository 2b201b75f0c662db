/**
 * The one reply shape of every paged query in the product:
 *
 *   { status: 200, message, data: { rows: [...], total, pageIndex, pageSize } }
 *
 * `total` counts every row that matches the filters (not just this page); `pageIndex`
 * starts at 1; `pageSize` is at most MAX_PAGE_SIZE. A page past the end has no rows and
 * the true total. A route that does not count every match (the resource engine, above
 * COUNT_CAP) says so with `totalExact: false`: `total` is then an estimate, never less
 * than the rows known to exist; the field is absent when the total is exact, so the other
 * paged replies are unchanged. These helpers give routes the JSON Schemas of that shape, so that the
 * OpenAPI document describes it once per route without anyone writing it by hand.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_INDEX, MAX_PAGE_SIZE, type Page } from '../../runtime/protocol/page.ts';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_INDEX, MAX_PAGE_SIZE, type Page };

/**
 * The resource engine counts matches exactly up to this many; past it the total of a full
 * page is the planner's estimate (server/resources/page-count.ts). Counting costs one heap
 * visit per match — an expression index cannot answer a count on its own — so an exact
 * count over 100,000 matches would cost more than everything else of the request together.
 */
export const COUNT_CAP = 1_000;

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
        description: 'Present only when `total` is not an exact count: more rows match than the engine counts exactly, and `total` is an estimate (never below the rows known to exist). Absent when `total` is exact.',
      },
      spansFarms: {
        type: 'boolean',
        const: true,
        description: "Present only when the rows are farm-owned and the caller's reads reach more than one farm (a platform administrator, a regional center, a service provider): each row's `farmName` tells the farms apart. Absent otherwise.",
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
