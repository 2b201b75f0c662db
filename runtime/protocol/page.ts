/**
 * The one shape of every paged reply's data, and the page query's limits:
 *
 *   { rows: [...], total, pageIndex, pageSize, totalExact?: false, spansFarms?: true }
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
  /**
   * Present (true) only when the rows are farm-owned and the caller's reads reach more than
   * one farm: each row's `farmName` then tells rows of different farms apart, and a table
   * shows it as a column of its own.
   */
  spansFarms?: true;
}
