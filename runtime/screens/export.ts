/**
 * Export of a table's current query: every page of it (filters and sort kept), up to a
 * cap, with the visible columns rendered as the screen shows them, to CSV or Excel. The
 * file is built in the browser; nothing is stored on the server.
 */
import writeXlsxFile from 'write-excel-file/browser';
import { csvDocument } from '../format/csv.ts';
import type { QueryValue } from '../http/client.ts';
import type { ExportFormat } from '../schema/screen.ts';
import { MAX_PAGE_SIZE, type Page } from '../protocol/page.ts';
import type { GridColumn, GridRow } from './DataGrid.tsx';

export const DEFAULT_EXPORT_ROWS = 10_000;

/** A page of the table's rows, in the protocol's page shape (runtime/protocol/page.ts). */
export type PageReply = Page<GridRow>;

/** Every row of the query, page after page of MAX_PAGE_SIZE, stopping at `maxRows`. */
export async function fetchAllRows(
  fetchPage: (params: Record<string, QueryValue>) => Promise<PageReply | undefined>,
  query: Record<string, QueryValue>,
  maxRows = DEFAULT_EXPORT_ROWS,
): Promise<{ rows: GridRow[]; total: number }> {
  const rows: GridRow[] = [];
  let total = 0;
  for (let pageIndex = 1; rows.length < maxRows; pageIndex++) {
    const page = await fetchPage({ ...query, pageIndex, pageSize: MAX_PAGE_SIZE });
    total = page?.total ?? 0;
    rows.push(...(page?.rows ?? []));
    // An estimated total may be too low or too high: only a short page ends the result then.
    const pageRows = page?.rows?.length ?? 0;
    if (pageRows < MAX_PAGE_SIZE || (page?.totalExact !== false && rows.length >= total)) break;
  }
  return { rows: rows.slice(0, maxRows), total };
}

/** The rows as the columns show them, in CSV that a spreadsheet reads as data (runtime/format/csv.ts). */
export function toCsv(columns: GridColumn[], rows: GridRow[]): string {
  return csvDocument([columns.map((c) => c.title), ...rows.map((r) => columns.map((c) => c.text(r)))]);
}

export async function exportBlob(format: ExportFormat, columns: GridColumn[], rows: GridRow[]): Promise<Blob> {
  if (format === 'csv') return new Blob([toCsv(columns, rows)], { type: 'text/csv;charset=utf-8' });
  const header = columns.map((c) => ({ value: c.title, fontWeight: 'bold' as const }));
  // Typed String: an Excel text cell is never evaluated, whatever it starts with.
  const body = rows.map((r) => columns.map((c) => ({ value: c.text(r), type: String })));
  return writeXlsxFile([header, ...body], { columns: columns.map((c) => ({ width: Math.max(10, Math.round((c.width ?? 150) / 8)) })) }).toBlob();
}

export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name without characters file systems refuse. */
export function safeFileName(name: string, format: ExportFormat): string {
  const base = name.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'export';
  return `${base}.${format}`;
}
