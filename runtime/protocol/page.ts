/**
 * The one shape of every paged reply's data, and the page query's limits:
 *
 *   { rows: [...], total, pageIndex, pageSize, totalExact?: false }
 *
 * `total` counts every row matching the filters; `pageIndex` starts at 1; `pageSize` is at
 * most MAX_PAGE_SIZE. `totalExact: false` appears only when `total` is an estimate (never
 * below the rows known to exist); the field is absent when the total is exact.
 */
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_INDEX = 1_000_000;

export interface Page<T> {
  rows: T[];
  total: number;
  pageIndex: number;
  pageSize: number;
  /** Present (false) only when `total` was not counted exactly. */
  totalExact?: false;
}
