/**
 * An xlsx file opened under limits (docs/import.md, "Limits"). An xlsx is a zip of XML
 * parts; a small zip may inflate to gigabytes (a decompression bomb), so nothing is handed
 * to the spreadsheet reader before every part was inflated here, from the zip's central
 * directory, by a streaming inflater whose output is counted as it comes: the entry count,
 * each part's and the file's inflated size, each part's ratio of inflated to compressed
 * bytes, the shared strings' size and the rows of each sheet are checked chunk by chunk, and
 * the first limit passed stops the inflater there. The parts read-excel-file needs (the
 * `.xml` and `.xml.rels` ones) are then packed again, stored without compression, into a
 * new zip: the reader inflates nothing, and reads exactly the bytes counted here (a zip's
 * local headers may disagree with its central directory; the new one cannot).
 */
import { crc32, createInflateRaw } from 'node:zlib';
import { IMPORT_MAX_ROWS } from '../../runtime/schema/resource-import.ts';

export const XLSX_LIMITS = {
  /** Parts in the zip (a workbook of a few sheets has about a dozen). */
  entries: 200,
  /** All parts inflated together. */
  totalBytes: 40 * 1024 * 1024,
  /** One part inflated. */
  entryBytes: 32 * 1024 * 1024,
  /** Inflated / compressed bytes of one part, checked once it has inflated past `ratioFrom`. */
  ratio: 100,
  ratioFrom: 1024 * 1024,
  /** The shared strings part (every text cell's text). */
  sharedStringsBytes: 16 * 1024 * 1024,
  /** Rows holding a value in any sheet: the headers and IMPORT_MAX_ROWS data rows. */
  rows: IMPORT_MAX_ROWS + 1,
} as const;

export type XlsxLimit = 'entries' | 'totalBytes' | 'entryBytes' | 'ratio' | 'sharedStrings' | 'rows' | 'damaged';

/** A limit passed (or a zip that cannot be read), with what the sentence names. */
export class XlsxRefusal extends Error {
  readonly limit: XlsxLimit;
  readonly params: Record<string, string | number>;
  constructor(limit: XlsxLimit, params: Record<string, string | number> = {}) {
    super(`xlsx ${limit}`);
    this.limit = limit;
    this.params = params;
  }
}

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The central directory's entries; a zip64 or spanned archive is not an xlsx this reads. */
function centralDirectory(zip: Buffer): Entry[] {
  const from = Math.max(0, zip.length - 22 - 0xffff);
  let at = -1;
  for (let i = zip.length - 22; i >= from; i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new XlsxRefusal('damaged');
  const count = zip.readUInt16LE(at + 10);
  // Checked before a single part is read.
  if (count > XLSX_LIMITS.entries) throw new XlsxRefusal('entries', { limit: XLSX_LIMITS.entries });
  const size = zip.readUInt32LE(at + 12);
  let p = zip.readUInt32LE(at + 16);
  if (count === 0xffff || p === 0xffffffff || p + size > at) throw new XlsxRefusal('damaged');
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > at || zip.readUInt32LE(p) !== CENTRAL) throw new XlsxRefusal('damaged');
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const compressedSize = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLength);
    // Encrypted parts, and methods other than stored and deflate, are not an xlsx.
    if (flags & 1 || (method !== 0 && method !== 8)) throw new XlsxRefusal('damaged');
    entries.push({ name, method, compressedSize, localOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The compressed bytes of an entry, found through its local header. */
function entryData(zip: Buffer, e: Entry): Buffer {
  const p = e.localOffset;
  if (p + 30 > zip.length || zip.readUInt32LE(p) !== LOCAL) throw new XlsxRefusal('damaged');
  const start = p + 30 + zip.readUInt16LE(p + 26) + zip.readUInt16LE(p + 28);
  if (start + e.compressedSize > zip.length) throw new XlsxRefusal('damaged');
  return zip.subarray(start, start + e.compressedSize);
}

/**
 * Counts the rows of a sheet that hold a value (`<row>` … `<v>` or `<is>` … `</row>`), chunk
 * by chunk: a tag cut between two chunks is carried into the next.
 */
class RowCounter {
  rows = 0;
  private carry = '';
  private inRow = false;
  private counted = false;

  feed(chunk: Buffer): void {
    const text = this.carry + chunk.toString('latin1');
    const cut = text.lastIndexOf('<');
    const whole = cut >= 0 && text.indexOf('>', cut) < 0 ? text.slice(0, cut) : text;
    this.carry = text.slice(whole.length);
    for (const m of whole.matchAll(/<(\/?)(?:\w+:)?(row|v|is)\b([^>]*)>/g)) {
      const [, close, tag, rest] = m;
      if (tag === 'row') {
        if (close) this.inRow = false;
        else if (!rest.endsWith('/')) {
          this.inRow = true;
          this.counted = false;
        }
      } else if (!close && this.inRow && !this.counted) {
        this.counted = true;
        this.rows++;
        if (this.rows > XLSX_LIMITS.rows) throw new XlsxRefusal('rows', { limit: XLSX_LIMITS.rows - 1 });
      }
    }
  }
}

/** One part inflated, its output counted chunk by chunk; the first limit passed stops it. */
async function inflatePart(e: Entry, data: Buffer, totalSoFar: () => number, onChunk: (chunk: Buffer) => void): Promise<Buffer> {
  const sharedStrings = /(^|\/)sharedStrings\.xml$/i.test(e.name);
  const counter = /^xl\/worksheets\/[^/]+\.xml$/i.test(e.name) ? new RowCounter() : null;
  const check = (inflated: number) => {
    if (inflated > XLSX_LIMITS.entryBytes) throw new XlsxRefusal('entryBytes', { limit: XLSX_LIMITS.entryBytes / 1024 / 1024 });
    if (sharedStrings && inflated > XLSX_LIMITS.sharedStringsBytes) throw new XlsxRefusal('sharedStrings', { limit: XLSX_LIMITS.sharedStringsBytes / 1024 / 1024 });
    if (inflated > XLSX_LIMITS.ratioFrom && inflated > XLSX_LIMITS.ratio * Math.max(1, data.length)) throw new XlsxRefusal('ratio', { limit: XLSX_LIMITS.ratio });
  };
  if (e.method === 0) {
    check(data.length);
    onChunk(data);
    counter?.feed(data);
    return data;
  }
  const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
  const chunks: Buffer[] = [];
  let inflated = 0;
  inflater.end(data);
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      check(inflated);
      onChunk(chunk);
      if (totalSoFar() > XLSX_LIMITS.totalBytes) throw new XlsxRefusal('totalBytes', { limit: XLSX_LIMITS.totalBytes / 1024 / 1024 });
      counter?.feed(chunk);
      chunks.push(chunk);
    }
  } catch (err) {
    inflater.destroy();
    if (err instanceof XlsxRefusal) throw err;
    throw new XlsxRefusal('damaged');
  }
  return Buffer.concat(chunks, inflated);
}

/** A zip of `parts`, each stored as it is (no compression). */
function storedZip(parts: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of parts) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * The xlsx's XML parts, inflated under XLSX_LIMITS and packed again stored; throws
 * XlsxRefusal the moment a limit is passed.
 */
export async function boundedXlsx(zip: Buffer): Promise<Buffer> {
  const entries = centralDirectory(zip);
  let total = 0;
  const parts: { name: string; data: Buffer }[] = [];
  for (const e of entries) {
    if (e.name.endsWith('/')) continue;
    // Every part is inflated (and counted), even those the reader skips: what a zip holds is bounded.
    const data = await inflatePart(e, entryData(zip, e), () => total, (chunk) => {
      total += chunk.length;
    });
    if (total > XLSX_LIMITS.totalBytes) throw new XlsxRefusal('totalBytes', { limit: XLSX_LIMITS.totalBytes / 1024 / 1024 });
    if (e.name.endsWith('.xml') || e.name.endsWith('.xml.rels')) parts.push({ name: e.name, data });
  }
  return storedZip(parts);
}

/** The bounds of `boundedZipEntries` (a KMZ, a zipped Shapefile: server/land/import-formats.ts). */
export interface ZipLimits {
  entries: number;
  totalBytes: number;
  ratio: number;
  ratioFrom: number;
}

/**
 * Every file of a zip inflated under `limits`, by the same central-directory walk as the
 * xlsx reader: the entry count before anything is inflated, each part's ratio and the total
 * while inflating, chunk by chunk; the first limit passed stops the inflater (XlsxRefusal
 * `entries`, `totalBytes`, `ratio` or `damaged`).
 */
export async function boundedZipEntries(zip: Buffer, limits: ZipLimits): Promise<Map<string, Buffer>> {
  const entries = centralDirectory(zip);
  if (entries.length > limits.entries) throw new XlsxRefusal('entries', { limit: limits.entries });
  let total = 0;
  const out = new Map<string, Buffer>();
  for (const e of entries) {
    if (e.name.endsWith('/')) continue;
    const data = entryData(zip, e);
    const check = (inflated: number) => {
      if (total > limits.totalBytes) throw new XlsxRefusal('totalBytes', { limit: limits.totalBytes / 1024 / 1024 });
      if (inflated > limits.ratioFrom && inflated > limits.ratio * Math.max(1, data.length)) throw new XlsxRefusal('ratio', { limit: limits.ratio });
    };
    if (e.method === 0) {
      total += data.length;
      check(data.length);
      out.set(e.name, data);
      continue;
    }
    const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
    const chunks: Buffer[] = [];
    let inflated = 0;
    inflater.end(data);
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        total += chunk.length;
        check(inflated);
        chunks.push(chunk);
      }
    } catch (err) {
      inflater.destroy();
      if (err instanceof XlsxRefusal) throw err;
      throw new XlsxRefusal('damaged');
    }
    out.set(e.name, Buffer.concat(chunks, inflated));
  }
  return out;
}
