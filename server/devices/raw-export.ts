/**
 * Raw readings of a range as a file (issue 26 item 7): every stored value, not buckets, as
 * CSV (streamed in batches, so a year of a sensor never sits in memory) or XLSX (built in
 * memory, hence its lower row limit). The limits are checked by a bounded count before a
 * row is read, and a refused export writes nothing.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import writeXlsxFile from 'write-excel-file/node';
import { csvDocument, csvField } from '../../runtime/format/csv.ts';
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { invalidInput } from '../resources/validation.ts';
import { farmScope } from '../materials/ledger.ts';
import { parsePlaces, type PlaceRef } from './reads.ts';
import { READING_KINDS, READING_UNITS, type ReadingKind } from './topics.ts';
import { msg } from './messages.ts';

export const RAW_MAX_ROWS = { csv: 1_000_000, xlsx: 100_000 } as const;
export const RAW_MAX_DAYS = 366;
/** Rows per query while streaming: short statements, so a slow download holds no transaction. */
const BATCH = 5_000;

export type RawFormat = keyof typeof RAW_MAX_ROWS;

interface RawQuery {
  kind?: ReadingKind;
  places: PlaceRef[];
  from: Date;
  to: Date;
}

interface RawRow {
  ts: Date;
  farm_name: string;
  place: string;
  device_id: number;
  code: string;
  name: string;
  kind: string;
  value: number;
  simulated: boolean;
}

const HEADERS: Record<Lang, string[]> = {
  zh: ['时间', '农场', '位置', '设备编号', '设备名称', '指标', '数值', '单位', '模拟数据'],
  en: ['Time', 'Farm', 'Place', 'Device code', 'Device name', 'Reading', 'Value', 'Unit', 'Simulated'],
  es: ['Hora', 'Finca', 'Lugar', 'Código del equipo', 'Nombre del equipo', 'Medida', 'Valor', 'Unidad', 'Simulado'],
};
const YES_NO: Record<Lang, [string, string]> = { zh: ['是', '否'], en: ['yes', 'no'], es: ['sí', 'no'] };

/** The rows' WHERE, in the caller's read scope. */
function whereOf(user: SessionUser, q: RawQuery, p: Params): string {
  const places = q.places.length
    ? `AND (${q.places.map((r) => (r.farmId ? `(r.place = ${p.add(r.place)} AND r.farm_id = ${p.add(r.farmId)})` : `r.place = ${p.add(r.place)}`)).join(' OR ')})`
    : '';
  const kind = q.kind ? `AND r.kind = ${p.add(q.kind)}` : '';
  return `${farmScope(user, p, 'r.farm_id', 'read')} ${kind} ${places} AND r.ts >= ${p.add(q.from.toISOString())} AND r.ts < ${p.add(q.to.toISOString())}`;
}

/** How many rows the export would hold, counted no further than `limit + 1`. */
export async function rawCount(db: Queryable, user: SessionUser, q: RawQuery, limit: number): Promise<number> {
  const p = new Params();
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM device_readings r WHERE ${whereOf(user, q, p)} LIMIT ${limit + 1}) x`, p.values);
  return rows[0].n;
}

/**
 * The rows in time order, a batch at a time, after the key (ts, device, kind) of the last
 * one: the same reading stored twice (a redelivered message) has the same key, so each
 * batch skips as many rows of the last key as were already given.
 */
export async function* rawRows(db: Queryable, user: SessionUser, q: RawQuery): AsyncGenerator<RawRow> {
  type Key = { ts: Date; device: number; kind: string; seen: number };
  let after: Key | null = null as Key | null;
  for (;;) {
    const p = new Params();
    const keyCond: string = after ? `AND (r.ts, r.device_id, r.kind) >= (${p.add(after.ts.toISOString())}::timestamptz, ${p.add(after.device)}::int, ${p.add(after.kind)}::text)` : '';
    const rows: RawRow[] = (await db.query<RawRow>(
      `SELECT r.ts, o.name AS farm_name, r.place, r.device_id, d.code, d.name, r.kind, r.value, coalesce(g.simulated, false) AS simulated
         FROM device_readings r JOIN devices d ON d.id = r.device_id JOIN organisations o ON o.id = r.farm_id
         LEFT JOIN device_gateways g ON g.id = d.gateway_id
        WHERE ${whereOf(user, q, p)} ${keyCond}
        ORDER BY r.ts, r.device_id, r.kind LIMIT ${BATCH + (after?.seen ?? 0)}`,
      p.values,
    )).rows;
    const fresh: RawRow[] = rows.slice(after?.seen ?? 0);
    if (!fresh.length) return;
    yield* fresh;
    if (rows.length < BATCH + (after?.seen ?? 0)) return;
    const last: RawRow = fresh[fresh.length - 1];
    const same = (r: RawRow) => new Date(r.ts).getTime() === new Date(last.ts).getTime() && r.device_id === last.device_id && r.kind === last.kind;
    let seen = 0;
    for (let i = rows.length - 1; i >= 0 && same(rows[i]); i--) seen++;
    after = { ts: new Date(last.ts), device: last.device_id, kind: last.kind, seen };
  }
}

function cells(r: RawRow, lang: Lang): (string | number)[] {
  return [new Date(r.ts).toISOString(), r.farm_name, r.place, r.code, r.name, r.kind, Number(r.value), READING_UNITS[r.kind as ReadingKind] ?? '', YES_NO[lang][r.simulated ? 0 : 1]];
}

/** CSV lines as they are read: the header (with a BOM, for spreadsheets), then a line per reading. */
async function* csvLines(db: Queryable, user: SessionUser, q: RawQuery, lang: Lang): AsyncGenerator<string> {
  yield csvDocument([HEADERS[lang]], { bom: true });
  let chunk: string[] = [];
  for await (const r of rawRows(db, user, q)) {
    chunk.push(`${cells(r, lang).map(csvField).join(',')}\r\n`);
    if (chunk.length >= 1_000) {
      yield chunk.join('');
      chunk = [];
    }
  }
  if (chunk.length) yield chunk.join('');
}

export function registerRawExportRoute(app: FastifyInstance, menus: readonly string[]): void {
  app.get<{ Querystring: { kind?: string; places?: string; from: string; to: string; format?: RawFormat } }>(
    '/devices/readings/raw',
    {
      schema: {
        tags: ['devices'],
        summary: `Every stored reading of a range (one kind or all, some places or all) as CSV (streamed, at most ${RAW_MAX_ROWS.csv.toLocaleString('en')} rows) or XLSX (at most ${RAW_MAX_ROWS.xlsx.toLocaleString('en')}), at most ${RAW_MAX_DAYS} days; a larger export is refused before a row is read`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['from', 'to'],
          properties: {
            kind: { type: 'string', enum: [...READING_KINDS] },
            places: { type: 'string', maxLength: 500 },
            from: { type: 'string', format: 'date-time' },
            to: { type: 'string', format: 'date-time' },
            format: { type: 'string', enum: ['csv', 'xlsx'], default: 'csv' },
          },
        },
      },
    },
    async (req, reply) => {
      const me = requireCan(req, { menus: [...menus] });
      const lang = req.lang;
      const format: RawFormat = req.query.format ?? 'csv';
      const q: RawQuery = { kind: req.query.kind as ReadingKind | undefined, places: parsePlaces(req.query.places), from: new Date(req.query.from), to: new Date(req.query.to) };
      if (!(q.to > q.from)) throw invalidInput([{ field: 'to', message: t(lang, msg['devices.rangeOrder']) }], lang);
      if (q.to.getTime() - q.from.getTime() > RAW_MAX_DAYS * 86_400_000) throw invalidInput([{ field: 'from', message: t(lang, msg['devices.rawRangeTooLong'], { days: RAW_MAX_DAYS }) }], lang);
      const max = RAW_MAX_ROWS[format];
      if ((await rawCount(app.db, me, q, max)) > max) throw invalidInput([{ field: 'to', message: t(lang, msg['devices.rawTooMany'], { max: max.toLocaleString(lang === 'zh' ? 'zh-CN' : lang), format: format.toUpperCase() }) }], lang);
      const name = `readings-${q.kind ?? 'all'}-${q.from.toISOString().slice(0, 10)}-${q.to.toISOString().slice(0, 10)}.${format}`;
      reply.header('cache-control', 'no-store').header('content-disposition', `attachment; filename="${name}"`);
      if (format === 'csv') return reply.header('content-type', 'text/csv; charset=utf-8').send(Readable.from(csvLines(app.db, me, q, lang)));
      const rows: { value: string | number; type?: typeof String | typeof Number; fontWeight?: 'bold' }[][] = [HEADERS[lang].map((h) => ({ value: h, fontWeight: 'bold' as const }))];
      for await (const r of rawRows(app.db, me, q)) rows.push(cells(r, lang).map((v) => (typeof v === 'number' ? { value: v, type: Number } : { value: v, type: String })));
      const buffer = await writeXlsxFile(rows, { columns: [{ width: 24 }, { width: 18 }, { width: 16 }, { width: 18 }, { width: 18 }, { width: 16 }, { width: 10 }, { width: 8 }, { width: 10 }] }).toBuffer();
      return reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(buffer);
    },
  );
}
