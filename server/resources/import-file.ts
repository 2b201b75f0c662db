/**
 * A spreadsheet's rows as record bodies (docs/import.md): the file read (xlsx, or CSV
 * after RFC 4180), its first row's headers mapped to fields by name or title, and each
 * cell turned into the field's type the way a person would write it (an option by its
 * title in any language, «是» / «no» for a boolean, 2024/3/5 for a date, a list split at
 * commas). What cannot be turned is left as written, so the record's validation names
 * the field in the user's words.
 */
import { readSheet } from 'read-excel-file/node';
import type { FieldSchema, ResourceDocument } from '../../runtime/schema/resource.ts';
import { headerField, IMPORT_MAX_ROWS } from '../../runtime/schema/resource-import.ts';
import { CsvError, decodeCsv, parseCsv } from './import-csv.ts';
import { boundedXlsx, XlsxRefusal, type XlsxLimit } from './import-xlsx.ts';

export type Cell = string | number | boolean | Date | null;

export type ImportFileReason =
  | 'xls' | 'unreadable' | 'encoding' | 'csv' | 'empty' | 'noHeaders' | 'duplicateHeader'
  | 'rowLimit' | 'zipEntries' | 'zipSize' | 'zipRatio' | 'sharedStrings';

export class ImportFileError extends Error {
  readonly reason: ImportFileReason;
  readonly params: Record<string, string | number>;
  constructor(reason: ImportFileReason, params: Record<string, string | number> = {}) {
    super(reason);
    this.reason = reason;
    this.params = params;
  }
}

const XLSX_REASON: Record<XlsxLimit, ImportFileReason> = {
  entries: 'zipEntries',
  totalBytes: 'zipSize',
  entryBytes: 'zipSize',
  ratio: 'zipRatio',
  sharedStrings: 'sharedStrings',
  rows: 'rowLimit',
  damaged: 'unreadable',
};

/**
 * The sheet of a file: xlsx when it is a zip (its magic number), else CSV. Both are read
 * under the limits of docs/import.md and stop at the first one passed: the xlsx's parts
 * inflated and counted before the spreadsheet reader sees them (import-xlsx.ts), the CSV's
 * records counted as they are parsed.
 */
export async function readRows(bytes: Buffer): Promise<Cell[][]> {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    let checked: Buffer;
    try {
      checked = await boundedXlsx(bytes);
    } catch (e) {
      if (e instanceof XlsxRefusal) throw new ImportFileError(XLSX_REASON[e.limit], e.params);
      // A zip whose offsets point outside it, say: a damaged file, not a server error.
      throw new ImportFileError('unreadable');
    }
    try {
      return (await readSheet(checked)) as Cell[][];
    } catch {
      throw new ImportFileError('unreadable');
    }
  }
  // The old binary Excel format (a compound document) is not read: save as .xlsx.
  if (bytes.length >= 4 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) throw new ImportFileError('xls');
  try {
    // The headers and IMPORT_MAX_ROWS rows; the reading stops at the next row holding a value.
    return parseCsv(decodeCsv(bytes), IMPORT_MAX_ROWS + 1);
  } catch (e) {
    if (e instanceof CsvError && e.reason === 'tooManyRows') throw new ImportFileError('rowLimit', { limit: IMPORT_MAX_ROWS });
    if (e instanceof CsvError) throw new ImportFileError(e.reason === 'encoding' ? 'encoding' : 'csv', { line: e.line });
    throw e;
  }
}

export interface ImportColumn {
  /** The header as written. */
  header: string;
  /** The field it names; null for a column that is not imported. */
  field: string | null;
}

export interface SheetRow {
  /** The row's number in the spreadsheet (the headers are row 1). */
  row: number;
  /** Each mapped field's cell as written (for the preview). */
  cells: Record<string, string>;
  /** The record body the cells make. */
  body: Record<string, unknown>;
  /** Reference fields given by their record's name rather than its id. */
  names: Record<string, string>;
}

const blank = (v: Cell | undefined) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** The columns of the header row and the data rows under it, empty rows left out. */
export function sheetRows(doc: ResourceDocument, rows: Cell[][]): { columns: ImportColumn[]; rows: SheetRow[] } {
  const headerAt = rows.findIndex((r) => r.some((c) => !blank(c)));
  if (headerAt < 0) throw new ImportFileError('empty');
  const columns: ImportColumn[] = rows[headerAt].map((c) => {
    const header = blank(c) ? '' : cellText(c).trim();
    return { header, field: header ? headerField(doc, header) : null };
  });
  if (!columns.some((c) => c.field)) throw new ImportFileError('noHeaders');
  const seen = new Map<string, string>();
  for (const c of columns) {
    if (!c.field) continue;
    const before = seen.get(c.field);
    if (before !== undefined) throw new ImportFileError('duplicateHeader', { first: before, second: c.header });
    seen.set(c.field, c.header);
  }
  const out: SheetRow[] = [];
  rows.slice(headerAt + 1).forEach((cells, i) => {
    if (!cells.some((c) => !blank(c))) return;
    const row: SheetRow = { row: headerAt + i + 2, cells: {}, body: {}, names: {} };
    columns.forEach((col, j) => {
      const value = cells[j];
      if (!col.field || blank(value)) return;
      row.cells[col.field] = cellText(value as Cell);
      const schema = doc.record.properties[col.field];
      const isRef = !!doc.references?.[col.field];
      const converted = convert(schema, value as Cell);
      if (isRef && typeof converted === 'string') row.names[col.field] = converted;
      else row.body[col.field] = converted;
    });
    out.push(row);
  });
  return { columns, rows: out };
}

/** A cell as text, as the preview shows it. */
export function cellText(v: Cell): string {
  if (v instanceof Date) return isoDate(v, true);
  if (v === null) return '';
  return String(v);
}

function isoDate(d: Date, withTime: boolean): string {
  const iso = d.toISOString();
  if (!withTime || iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  return iso.replace(/\.\d{3}Z$/, 'Z');
}

const key = (s: string) => s.normalize('NFKC').trim().toLowerCase();

/** An option written as its value or its title in any language. */
function enumValue(schema: FieldSchema, v: Cell): Cell {
  const values = schema.enum!;
  const direct = values.find((e) => String(e) === String(v).trim());
  if (direct !== undefined) return direct;
  const k = key(String(v));
  const titles = schema['x-enumTitles'] ?? [];
  const at = titles.findIndex((t) => t && Object.values(t).some((s) => typeof s === 'string' && key(s) === k));
  if (at >= 0) return values[at];
  const byValue = values.find((e) => key(String(e)) === k);
  return byValue !== undefined ? byValue : typeof v === 'string' ? v.trim() : v;
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', '是', '有', '对', 'sí', 'si', '✓', '√']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', '否', '无', '不', '×', 'x']);

function convert(schema: FieldSchema, v: Cell): unknown {
  if (schema.type === 'array') {
    const parts = (v instanceof Date ? [cellText(v)] : String(v).split(/[,，、;；|]/))
      .map((s) => s.trim())
      .filter(Boolean);
    return parts.map((p) => convert(schema.items!, p));
  }
  if (schema.enum && !(typeof v === 'number' && schema.enum.includes(v))) {
    const got = enumValue(schema, v);
    if (got !== v) return got;
  }
  if (schema.type === 'string') {
    if (v instanceof Date) return schema.format === 'date-time' ? isoDate(v, true).replace(/^(\d{4}-\d{2}-\d{2})$/, '$1T00:00:00Z') : isoDate(v, false);
    const text = String(v).trim();
    if (schema.format === 'date') {
      const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(text);
      if (m) return `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}`;
    }
    return text;
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    if (typeof v === 'number') return v;
    const text = String(v).trim().replace(/[\s\u00a0]/g, '');
    if (/^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
    return text;
  }
  if (schema.type === 'boolean') {
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
    const k = key(String(v));
    if (TRUE_WORDS.has(k)) return true;
    if (FALSE_WORDS.has(k)) return false;
    return String(v).trim();
  }
  return v;
}
