/**
 * CSV that a spreadsheet reads as data, never as formulas (issue 24; docs/import.md
 * "Exports are data"). Every CSV the console or the server writes goes through
 * `csvDocument`: the table's export (runtime/screens/export.ts), the accounts report
 * (server/harvest/routes.ts), the environment charts (widgets/equipment-control).
 *
 * Imports keep what a person wrote (`=1+1` is stored as that text); the export makes it
 * safe, as OWASP's CSV-injection guidance says: a cell that a spreadsheet would evaluate
 * (it starts with = + - @, a tab or a carriage return) is written with a leading
 * apostrophe, which Excel, LibreOffice and Google Sheets read as "this is text", and
 * quoted. The full-width forms of the four signs (＝ ＋ － ＠) are treated alike: some
 * spreadsheet locales turn them into formulas as typed.
 *
 * A number stays a number, told by its type or, for text, by its format: 42, -12.50,
 * "-12.50", "1,234.5", "+3e5", "-5%" are values a spreadsheet reads as numbers, not
 * formulas, so they are written as they are. Everything else that starts with a sign is
 * neutralised ("-1+2", "+cmd|' /C calc'!A0", "-").
 *
 * Pure code (no React, no node modules): the console, the widgets and the server import it.
 */

/** What a cell may hold. */
export type CsvValue = string | number | bigint | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain number in text: sign, digits (grouped by thousands or not), decimals, exponent, percent. */
const PLAIN_NUMBER = /^[-+]?(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?(?:[eE][-+]?\d+)?%?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Whether a spreadsheet would evaluate this text as a formula (or a command) when it opens the file. */
export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/**
 * The text of one cell as it is safe to hand to a spreadsheet: numbers as they are, a
 * formula-like text behind an apostrophe. The one function every CSV writer uses.
 */
export function spreadsheetText(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value !== 'string') return String(value);
  return isFormulaLike(value) ? `'${value}` : value;
}

/** One CSV field (RFC 4180): the safe text, in double quotes when it holds a quote, comma or line break, or was neutralised. */
export function csvField(value: CsvValue): string {
  const text = spreadsheetText(value);
  return NEEDS_QUOTES.test(text) || text !== (typeof value === 'string' ? value : text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A whole CSV file: CRLF line ends, and a byte-order mark by default so that Excel reads
 * UTF-8 (Chinese text) correctly.
 */
export function csvDocument(rows: readonly (readonly CsvValue[])[], opts: { bom?: boolean } = {}): string {
  const body = rows.map((row) => row.map(csvField).join(',')).join('\r\n');
  return `${opts.bom === false ? '' : '\uFEFF'}${body}\r\n`;
}
