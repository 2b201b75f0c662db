/**
 * A CSV reader after RFC 4180 (docs/import.md): fields separated by commas, records by
 * CRLF (a lone LF or CR is accepted too, as editors write them), a field in double quotes
 * may hold commas, line breaks and doubled quotes (""). Text is UTF-8, with or without a
 * byte-order mark (Excel writes one); a file that is not valid UTF-8 is refused rather than
 * read as garbage. Quotes inside an unquoted field are kept as they are (a lenient reading
 * of what spreadsheets export); an unterminated quoted field is an error.
 */

export class CsvError extends Error {
  constructor(
    readonly reason: 'encoding' | 'unterminatedQuote' | 'textAfterQuote' | 'tooManyRows',
    /** The 1-based line where the problem starts. */
    readonly line: number,
  ) {
    super(`${reason} at line ${line}`);
  }
}

/** The bytes of a CSV file as text: UTF-8 without its byte-order mark. */
export function decodeCsv(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CsvError('encoding', 1);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The records of a CSV text, each a list of field strings. A final line break does not
 * start an empty record; an empty line in the middle is a record of one empty field.
 * Past `maxRecords` records holding a value the reading stops there (CsvError
 * 'tooManyRows'): the rest of the text is never looked at.
 */
export function parseCsv(input: string, maxRecords = Number.POSITIVE_INFINITY): string[][] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
  const n = text.length;
  let filled = 0;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    if (record.some((f) => f.trim() !== '') && ++filled > maxRecords) throw new CsvError('tooManyRows', line);
    record = [];
    field = '';
  };
  while (i < n) {
    const c = text[i];
    if (c === '"' && field === '') {
      // A quoted field: up to the closing quote; "" is one quote.
      const start = line;
      i++;
      for (;;) {
        if (i >= n) throw new CsvError('unterminatedQuote', start);
        const q = text[i];
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n' || (q === '\r' && text[i + 1] !== '\n')) line++;
        field += q;
        i++;
      }
      // After the closing quote: a separator, a line break or the end.
      const next = text[i];
      if (i < n && next !== ',' && next !== '\r' && next !== '\n') throw new CsvError('textAfterQuote', line);
      if (i >= n) break;
      continue;
    }
    if (c === ',') {
      record.push(field);
      field = '';
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      continue;
    }
    field += c;
    i++;
  }
  // The last record, unless the text ended with its line break.
  if (field !== '' || record.length || (n > 0 && text[n - 1] === '"')) endRecord();
  return records;
}
