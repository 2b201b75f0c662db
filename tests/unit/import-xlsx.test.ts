/**
 * The bounded xlsx reader of imports (server/resources/import-xlsx.ts) and the CSV reader's
 * row limit: every zip built here. A part past a limit is refused the moment its inflated
 * bytes pass it, with the limit that was passed; a file within the limits reads back
 * through read-excel-file, from the zip packed again.
 */
import { readSheet } from 'read-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv } from '../../server/resources/import-csv.ts';
import { ImportFileError, readRows } from '../../server/resources/import-file.ts';
import { boundedXlsx, XLSX_LIMITS, XlsxRefusal } from '../../server/resources/import-xlsx.ts';
import { deflatedRepeat, sheetXml, workbookParts, zipOf } from '../support/zip-build.ts';

const refusal = async (zip: Buffer): Promise<XlsxRefusal> => {
  try {
    await boundedXlsx(zip);
  } catch (e) {
    if (e instanceof XlsxRefusal) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('boundedXlsx', () => {
  it('passes a real workbook, which then reads back cell for cell', async () => {
    const file = await writeXlsxFile([
      [{ value: '商品编码' }, { value: '单价' }],
      [{ value: 'X-1' }, { value: 12.5 }],
    ]).toBuffer();
    const checked = await boundedXlsx(file);
    expect(await readSheet(checked)).toEqual([
      ['商品编码', '单价'],
      ['X-1', 12.5],
    ]);
  });

  it('refuses a bomb by its ratio, having inflated about the threshold and no more', async () => {
    const bomb = await deflatedRepeat(200, '<?xml version="1.0"?><worksheet><sheetData>');
    expect(bomb.bytes.length).toBeLessThan(300 * 1024);
    const started = performance.now();
    const e = await refusal(zipOf(workbookParts({ name: 'xl/worksheets/sheet1.xml', deflated: bomb })));
    expect(e.limit).toBe('ratio');
    expect(e.params).toEqual({ limit: XLSX_LIMITS.ratio });
    // Inflating 200 MiB takes seconds; stopping at ~1 MiB takes milliseconds.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses too many parts before inflating any', async () => {
    const parts = Array.from({ length: XLSX_LIMITS.entries + 1 }, (_, i) => ({ name: `x/${i}.xml`, data: '<a/>' }));
    expect((await refusal(zipOf(parts))).limit).toBe('entries');
  });

  it('refuses shared strings past their limit, a part past its size and a file past the total', async () => {
    const text = Buffer.alloc(XLSX_LIMITS.sharedStringsBytes + 1, 0x61);
    const shared = await refusal(zipOf(workbookParts({ name: 'xl/sharedStrings.xml', data: text, store: true })));
    expect(shared.limit).toBe('sharedStrings');
    const part = Buffer.alloc(XLSX_LIMITS.entryBytes + 1, 0x61);
    expect((await refusal(zipOf([{ name: 'xl/styles.xml', data: part, store: true }]))).limit).toBe('entryBytes');
    const half = Buffer.alloc(XLSX_LIMITS.totalBytes / 2 + 1, 0x61);
    const total = await refusal(zipOf([{ name: 'a.xml', data: half, store: true }, { name: 'b.xml', data: half, store: true }]));
    expect(total.limit).toBe('totalBytes');
  });

  it('counts the rows holding a value as the sheet inflates, and stops past the limit', async () => {
    const rows = Array.from({ length: XLSX_LIMITS.rows + 1 }, (_, i) => [`R-${i}`, 'n']);
    // Empty rows (formatting only) do not count.
    const blank = (from: number) => [0, 1, 2, 3].map((i) => (i % 2 ? `<row r="${from + i}"></row>` : `<row r="${from + i}" s="2"/>`)).join('');
    const xml = sheetXml(rows).replace('</sheetData>', `${blank(rows.length + 1)}</sheetData>`);
    const e = await refusal(zipOf(workbookParts({ name: 'xl/worksheets/sheet1.xml', data: xml })));
    expect(e.limit).toBe('rows');
    const within = sheetXml(rows.slice(0, XLSX_LIMITS.rows)).replace('</sheetData>', `${blank(XLSX_LIMITS.rows + 1)}</sheetData>`);
    const read = await readSheet(await boundedXlsx(zipOf(workbookParts({ name: 'xl/worksheets/sheet1.xml', data: within }))));
    expect(read.filter((r) => r.some((c) => c !== null))).toHaveLength(XLSX_LIMITS.rows);
  });

  it('refuses a damaged zip as unreadable', async () => {
    expect((await refusal(Buffer.from('PK\u0003\u0004 not a zip'))).limit).toBe('damaged');
    const good = zipOf(workbookParts({ name: 'xl/worksheets/sheet1.xml', data: sheetXml([['a']]) }));
    const cut = good.subarray(0, good.length - 30);
    expect((await refusal(cut)).limit).toBe('damaged');
  });
});

describe('readRows limits', () => {
  it('maps each xlsx limit to the refusal the route words', async () => {
    const bomb = await deflatedRepeat(50);
    const e = await readRows(zipOf(workbookParts({ name: 'xl/worksheets/sheet1.xml', deflated: bomb }))).catch((x) => x);
    expect(e).toBeInstanceOf(ImportFileError);
    expect(e.reason).toBe('zipRatio');
  });

  it('stops a CSV at the row past the limit, without reading what follows', async () => {
    const lines = ['code,name', ...Array.from({ length: 100_000 }, (_, i) => `C-${i},n`)];
    // A tail the reader would refuse if it got there: an unclosed quote.
    const text = `${lines.join('\n')}\n"unclosed`;
    const e = await readRows(Buffer.from(text)).catch((x) => x);
    expect(e).toBeInstanceOf(ImportFileError);
    expect(e.reason).toBe('rowLimit');
    expect(e.params).toEqual({ limit: 5000 });
  });

  it('parseCsv counts only records holding a value', () => {
    expect(parseCsv('a\n\n\nb\n', 2)).toEqual([['a'], [''], [''], ['b']]);
    expect(() => parseCsv('a\nb\nc\n"x', 2)).toThrow(CsvError);
    try {
      parseCsv('a\nb\nc\n"x', 2);
    } catch (e) {
      expect((e as CsvError).reason).toBe('tooManyRows');
      expect((e as CsvError).line).toBe(3);
    }
  });
});
