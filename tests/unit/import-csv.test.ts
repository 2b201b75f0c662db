/**
 * The CSV reader of imports (server/resources/import-csv.ts, RFC 4180): quoted fields with
 * separators, line breaks and doubled quotes; CRLF, LF and CR; the byte-order mark; a
 * final line break; empty fields; errors with their line; UTF-8 only.
 */
import { describe, expect, it } from 'vitest';
import { CsvError, decodeCsv, parseCsv } from '../../server/resources/import-csv.ts';

describe('parseCsv', () => {
  it('reads plain records separated by CRLF, LF or CR, with or without a final line break', () => {
    expect(parseCsv('a,b,c\r\n1,2,3\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsv('a,b\r1,2\r')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('keeps empty fields, trailing separators and empty lines in the middle', () => {
    expect(parseCsv('a,,c\r\n,,\r\n\r\nx,\r\n')).toEqual([['a', '', 'c'], ['', '', ''], [''], ['x', '']]);
    expect(parseCsv('')).toEqual([]);
  });

  it('reads quoted fields holding separators, line breaks and doubled quotes', () => {
    expect(parseCsv('"尿素, 46%","两行\r\n说明","他说 ""好"""\r\nnext,"",x\r\n')).toEqual([
      ['尿素, 46%', '两行\r\n说明', '他说 "好"'],
      ['next', '', 'x'],
    ]);
    expect(parseCsv('"a"')).toEqual([['a']]);
    expect(parseCsv('""')).toEqual([['']]);
  });

  it('drops the byte-order mark and keeps quotes inside an unquoted field', () => {
    expect(parseCsv('\uFEFF商品编码,名称\r\n5"x,a"b\r\n')).toEqual([
      ['商品编码', '名称'],
      ['5"x', 'a"b'],
    ]);
  });

  it('refuses an unterminated quote and text after a closing quote, naming the line', () => {
    expect(() => parseCsv('a,b\r\n1,"open\r\nmore')).toThrow(CsvError);
    try {
      parseCsv('a,b\r\n1,"open\r\nmore');
    } catch (e) {
      expect((e as CsvError).reason).toBe('unterminatedQuote');
      expect((e as CsvError).line).toBe(2);
    }
    try {
      parseCsv('a\r\n"x"y,1');
    } catch (e) {
      expect((e as CsvError).reason).toBe('textAfterQuote');
      expect((e as CsvError).line).toBe(2);
    }
  });
});

describe('decodeCsv', () => {
  it('decodes UTF-8 with or without a byte-order mark', () => {
    expect(decodeCsv(new TextEncoder().encode('\uFEFF编码,名称'))).toBe('编码,名称');
    expect(decodeCsv(new TextEncoder().encode('编码,名称'))).toBe('编码,名称');
  });

  it('refuses text that is not UTF-8', () => {
    expect(() => decodeCsv(Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x2c]))).toThrow(CsvError);
  });
});
