/**
 * Trends of the field-condition reports (docs/devices.md, "Field conditions"): seedling,
 * pest and disaster observation reports (resources of the engine) counted per day, week or
 * month over a chosen range, with the average and worst grade and the report's own measure
 * (seedling height, trap count, affected area). Needs the report's screen.
 */
import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { ok } from '../http/envelope.ts';
import { requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import { invalidInput } from '../resources/validation.ts';
import { Params } from '../db/params.ts';
import { farmScope } from '../materials/ledger.ts';
import { msg } from './messages.ts';

export const FIELD_REPORTS = {
  seedling: { resource: 'seedlingReports', menu: 'seedlingSituation', measure: 'heightCm', agg: 'avg' },
  insect: { resource: 'insectReports', menu: 'insectSituation', measure: 'trapCount', agg: 'sum' },
  disaster: { resource: 'disasterReports', menu: 'disasterSituation', measure: 'affectedAreaMu', agg: 'sum' },
} as const;
type Report = keyof typeof FIELD_REPORTS;

const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

/** day up to two months, week up to two years, month beyond (at most ten years). */
export function reportBucket(from: string, to: string): 'day' | 'week' | 'month' {
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  return days <= 62 ? 'day' : days <= 731 ? 'week' : 'month';
}

export function registerFieldTrendRoutes(plain: FastifyInstance): void {
  const app = typedRoutes(plain);
  const { db } = plain;
  app.get(
    '/devices/fieldReports/trend',
    {
      schema: {
        tags: ['devices'],
        summary: 'Field-condition reports (seedling, pest, disaster) per day, week or month over a range: count, average and worst grade, and the report’s measure (average seedling height, trap count, affected area)',
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['report', 'from', 'to'],
          properties: { report: { type: 'string', enum: Object.keys(FIELD_REPORTS) }, from: date, to: date, place: { type: 'string', maxLength: 60 } },
        },
      },
    },
    async (req) => {
      const spec = FIELD_REPORTS[req.query.report as Report];
      const me = requireCan(req, spec.menu);
      const { from, to } = req.query;
      if (Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to)) || to < from) throw invalidInput([{ field: 'to', message: t(req.lang, msg['devices.rangeOrder']) }], req.lang);
      if (Date.parse(to) - Date.parse(from) > 3660 * 86_400_000) throw invalidInput([{ field: 'from', message: t(req.lang, msg['devices.rangeTooLong'], { max: 120, bucket: 'month' }) }], req.lang);
      const bucket = reportBucket(from, to);
      const p = new Params();
      const conds = [`r.resource = ${p.add(spec.resource)}`, farmScope(me, p, 'r.farm_id', 'read'), `r.data->>'observedOn' >= ${p.add(from)}`, `left(r.data->>'observedOn', 10) <= ${p.add(to)}`];
      if (req.query.place) conds.push(`r.data->>'place' = ${p.add(req.query.place)}`);
      const { rows } = await db.query<{ t: string; reports: number; avg_grade: string | null; max_grade: number | null; measure: string | null }>(
        `SELECT to_char(date_trunc('${bucket}', (left(r.data->>'observedOn', 10))::date::timestamp), 'YYYY-MM-DD') AS t, count(*)::int AS reports,
                round(avg((r.data->>'grade')::numeric), 2)::text AS avg_grade, max((r.data->>'grade')::int) AS max_grade,
                round(${spec.agg}((r.data->>'${spec.measure}')::numeric), 2)::text AS measure
           FROM resource_records r WHERE ${conds.join(' AND ')} GROUP BY 1 ORDER BY 1`,
        p.values,
      );
      return ok({
        report: req.query.report,
        bucket,
        measure: spec.measure,
        points: rows.map((r) => ({ t: r.t, reports: r.reports, avgGrade: r.avg_grade == null ? null : Number(r.avg_grade), maxGrade: r.max_grade, measure: r.measure == null ? null : Number(r.measure) })),
      });
    },
  );
}
