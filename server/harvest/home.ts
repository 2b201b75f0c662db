/**
 * The home pages' blocks (docs/harvest-sales-trace.md, "Home pages"): each dashboard part
 * of /farmMain/index, /yxhome/index and /agricultureKnowledge/index is bound to one of
 * these endpoints, in the caller's scope. Device alarms, readings and the small map are
 * other modules' (devices, land) and are not here.
 */
import type { FastifyPluginAsync } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { ok } from '../http/envelope.ts';
import { caller, requireCan } from '../http/guard.ts';
import { refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { okArray, okObject, okPage } from '../admin/schemas.ts';
import { Params } from '../db/params.ts';
import { farmScope } from '../materials/ledger.ts';

const tags = ['home'];
const FARM_HOME = ['farmMainIndex'];
const PROVIDER_HOME = ['yxhomeIndex'];
const KNOWLEDGE_HOME = ['agricultureKnowledgeIndex'];
const paging = { pageIndex: { type: 'integer', minimum: 1, maximum: 100000 }, pageSize: { type: 'integer', minimum: 1, maximum: 100 } } as const;
const validated = { validatorCompiler: resourceValidatorCompiler, attachValidation: true } as const;
const today = () => new Date().toISOString().slice(0, 10);

export const homeRoutes: FastifyPluginAsync = async (plain) => {
  const app = typedRoutes(plain);

  app.get('/farmMain/overview', { schema: { tags, summary: 'Farm home figures: area planted, open groups, tasks due today and overdue, stock alerts, unread notices, this year’s harvest batches and sales income', response: okObject() } }, async (req) => {
    const me = requireCan(req, { menus: FARM_HOME });
    const p = new Params();
    const g = farmScope(me, p, 'g.farm_id', 'read');
    const tk = farmScope(me, p, 't.farm_id', 'read');
    const h = farmScope(me, p, 'h.farm_id', 'read');
    const e = farmScope(me, p, 'e.farm_id', 'read');
    const b = farmScope(me, p, 'b.farm_id', 'read');
    const day = p.add(today());
    const year = p.add(`${today().slice(0, 4)}-01-01`);
    const user = p.add(me.id);
    const { rows } = await app.db.query<Record<string, string | number>>(
      `SELECT
         (SELECT coalesce(sum((g.data->>'areaMu')::numeric), 0)::text FROM resource_records g WHERE g.resource = 'plantGroups' AND coalesce(g.data->>'status', '') <> 'closed' AND coalesce(g.data->>'stage', '') <> 'harvested' AND ${g}) AS area_mu,
         (SELECT count(*)::int FROM resource_records g WHERE g.resource = 'plantGroups' AND coalesce(g.data->>'status', '') <> 'closed' AND ${g.replaceAll('g.', 'g.')}) AS open_groups,
         (SELECT count(*)::int FROM resource_records t WHERE t.resource = 'farmingTasks' AND t.data->>'status' <> 'done' AND t.data->>'dueOn' = ${day} AND ${tk}) AS due_today,
         (SELECT count(*)::int FROM resource_records t WHERE t.resource = 'farmingTasks' AND t.data->>'status' <> 'done' AND t.data->>'dueOn' < ${day} AND ${tk}) AS overdue,
         (SELECT count(*)::int FROM harvests h WHERE h.harvested_on >= ${year}::date AND ${h}) AS harvest_batches,
         (SELECT coalesce(sum(e.amount), 0)::numeric(16,2)::text FROM account_entries e WHERE e.direction = 'income' AND e.category = 'sales' AND e.entry_on >= ${year}::date AND ${e}) AS sales_income,
         (SELECT count(*)::int FROM (SELECT b.material_id FROM material_balances b JOIN resource_records m ON m.resource = 'farmMaterials' AND m.id = b.material_id
             WHERE ${b} GROUP BY b.material_id, m.data HAVING sum(b.quantity) < coalesce((m.data->>'safetyStock')::numeric, 0)) x) AS stock_alerts,
         (SELECT count(*)::int FROM notice_receipts r WHERE r.user_id = ${user} AND r.read_at IS NULL) AS unread_notices`,
      p.values,
    );
    const r = rows[0];
    return ok({
      areaMu: Number(r.area_mu),
      openGroups: r.open_groups,
      tasks: { dueToday: r.due_today, overdue: r.overdue },
      harvestBatches: r.harvest_batches,
      salesIncome: r.sales_income,
      salesIncomeValue: Number(r.sales_income),
      stockAlerts: r.stock_alerts,
      unreadNotices: r.unread_notices,
    });
  });

  app.get('/farmMain/groupsByStage', { schema: { tags, summary: 'Open planting groups by growth stage (for a pie)', response: okArray() } }, async (req) => {
    const me = requireCan(req, { menus: FARM_HOME });
    const p = new Params();
    const { rows } = await app.db.query<{ stage: string; count: number; area: string }>(
      `SELECT coalesce(g.data->>'stage', 'seedling') AS stage, count(*)::int AS count, coalesce(sum((g.data->>'areaMu')::numeric), 0)::text AS area
         FROM resource_records g WHERE g.resource = 'plantGroups' AND coalesce(g.data->>'status', '') <> 'closed' AND ${farmScope(me, p, 'g.farm_id', 'read')} GROUP BY 1 ORDER BY 1`,
      p.values,
    );
    const names: Record<string, string> = { seedling: '苗期', vegetative: '营养生长期', flowering: '开花期', fruiting: '结实期', mature: '成熟期', harvested: '已采收' };
    const lang = req.lang;
    const en: Record<string, string> = { seedling: 'Seedling', vegetative: 'Vegetative', flowering: 'Flowering', fruiting: 'Fruiting', mature: 'Mature', harvested: 'Harvested' };
    const es: Record<string, string> = { seedling: 'Plántula', vegetative: 'Vegetativa', flowering: 'Floración', fruiting: 'Fructificación', mature: 'Madurez', harvested: 'Cosechado' };
    return ok(rows.map((r) => ({ stage: r.stage, label: (lang === 'zh' ? names : lang === 'en' ? en : es)[r.stage] ?? r.stage, count: r.count, areaMu: Number(r.area) })));
  });

  app.get(
    '/farmMain/tasks/page',
    { ...validated, schema: { tags, summary: 'Open tasks due today or overdue, most overdue first', querystring: { type: 'object', additionalProperties: false, properties: paging }, response: okPage() } },
    async (req) => {
      const me = requireCan(req, { menus: FARM_HOME });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const p = new Params();
      const day = p.add(today());
      const where = `t.resource = 'farmingTasks' AND t.data->>'status' <> 'done' AND t.data->>'dueOn' <= ${day} AND ${farmScope(me, p, 't.farm_id', 'read')}`;
      const pageIndex = req.query.pageIndex ?? 1;
      const pageSize = req.query.pageSize ?? 10;
      const total = (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records t WHERE ${where}`, p.values)).rows[0].n;
      const { rows } = await app.db.query<Record<string, string>>(
        `SELECT t.id, t.data->>'title' AS title, t.data->>'dueOn' AS due_on, t.data->>'status' AS status, g.data->>'name' AS group_name,
                CASE WHEN t.data->>'dueOn' = ${day} THEN 'today' ELSE 'overdue' END AS state
           FROM resource_records t LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = (t.data->>'groupId')::bigint
          WHERE ${where} ORDER BY t.data->>'dueOn', t.id LIMIT ${pageSize} OFFSET ${(pageIndex - 1) * pageSize}`,
        p.values,
      );
      return ok({ rows: rows.map((r) => ({ id: Number(r.id), title: r.title, dueOn: r.due_on, status: r.status, groupName: r.group_name, state: r.state })), total, pageIndex, pageSize });
    },
  );

  app.get(
    '/farmMain/stockAlerts/page',
    { ...validated, schema: { tags, summary: 'Materials below their safety stock (all stores together)', querystring: { type: 'object', additionalProperties: false, properties: paging }, response: okPage() } },
    async (req) => {
      const me = requireCan(req, { menus: FARM_HOME });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const p = new Params();
      const pageIndex = req.query.pageIndex ?? 1;
      const pageSize = req.query.pageSize ?? 10;
      const { rows } = await app.db.query<Record<string, string>>(
        `SELECT m.id, m.data->>'name' AS name, m.data->>'unit' AS unit, trim_scale(coalesce(sum(b.quantity), 0))::text AS quantity, m.data->>'safetyStock' AS safety_stock
           FROM resource_records m LEFT JOIN material_balances b ON b.material_id = m.id
          WHERE m.resource = 'farmMaterials' AND (m.data->>'safetyStock') IS NOT NULL AND ${farmScope(me, p, 'm.farm_id', 'read')}
          GROUP BY m.id HAVING coalesce(sum(b.quantity), 0) < (m.data->>'safetyStock')::numeric ORDER BY m.data->>'name'`,
        p.values,
      );
      const slice = rows.slice((pageIndex - 1) * pageSize, pageIndex * pageSize);
      return ok({ rows: slice.map((r) => ({ id: Number(r.id), name: r.name, unit: r.unit, quantity: Number(r.quantity), safetyStock: Number(r.safety_stock) })), total: rows.length, pageIndex, pageSize });
    },
  );

  app.get(
    '/farmMain/notices/page',
    { ...validated, schema: { tags, summary: 'The caller’s unread notices, newest first', querystring: { type: 'object', additionalProperties: false, properties: paging }, response: okPage() } },
    async (req) => {
      const me = requireCan(req, { menus: [...FARM_HOME, ...PROVIDER_HOME] });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const pageIndex = req.query.pageIndex ?? 1;
      const pageSize = req.query.pageSize ?? 10;
      const total = (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM notice_receipts WHERE user_id = $1 AND read_at IS NULL', [me.id])).rows[0].n;
      const { rows } = await app.db.query<Record<string, string>>(
        `SELECT n.id, n.title, n.kind, n.created_at FROM notice_receipts r JOIN notices n ON n.id = r.notice_id WHERE r.user_id = $1 AND r.read_at IS NULL ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
        [me.id, pageSize, (pageIndex - 1) * pageSize],
      );
      return ok({ rows: rows.map((r) => ({ id: Number(r.id), title: r.title, kind: r.kind, createdAt: r.created_at })), total, pageIndex, pageSize });
    },
  );

  app.get('/yxhome/overview', { schema: { tags, summary: 'Provider home figures over the farms of the provider’s scope: farms, area planted, open groups, this year’s harvest batches and sales income, open service business', response: okObject() } }, async (req) => {
    const me = requireCan(req, { menus: PROVIDER_HOME });
    const p = new Params();
    const year = p.add(`${today().slice(0, 4)}-01-01`);
    const { rows } = await app.db.query<Record<string, string | number>>(
      `SELECT (SELECT count(*)::int FROM organisations o WHERE o.type = 0 AND ${farmScope(me, p, 'o.id', 'read')}) AS farms,
              (SELECT coalesce(sum((g.data->>'areaMu')::numeric), 0)::text FROM resource_records g WHERE g.resource = 'plantGroups' AND coalesce(g.data->>'status', '') <> 'closed' AND ${farmScope(me, p, 'g.farm_id', 'read')}) AS area_mu,
              (SELECT count(*)::int FROM resource_records g WHERE g.resource = 'plantGroups' AND coalesce(g.data->>'status', '') <> 'closed' AND ${farmScope(me, p, 'g.farm_id', 'read')}) AS open_groups,
              (SELECT count(*)::int FROM harvests h WHERE h.harvested_on >= ${year}::date AND ${farmScope(me, p, 'h.farm_id', 'read')}) AS harvest_batches,
              (SELECT coalesce(sum(e.amount), 0)::numeric(16,2)::text FROM account_entries e WHERE e.direction = 'income' AND e.category = 'sales' AND e.entry_on >= ${year}::date AND ${farmScope(me, p, 'e.farm_id', 'read')}) AS sales_income,
              (SELECT count(*)::int FROM business b WHERE b.status IN (0, 1) AND ${farmScope(me, p, 'b.farm_id', 'read')}) AS open_business`,
      p.values,
    );
    const r = rows[0];
    return ok({ farms: r.farms, areaMu: Number(r.area_mu), openGroups: r.open_groups, harvestBatches: r.harvest_batches, salesIncome: r.sales_income, salesIncomeValue: Number(r.sales_income), openBusiness: r.open_business });
  });

  app.get(
    '/yxhome/farms/page',
    { ...validated, schema: { tags, summary: 'The provider’s farms with their key figures', querystring: { type: 'object', additionalProperties: false, properties: paging }, response: okPage() } },
    async (req) => {
      const me = requireCan(req, { menus: PROVIDER_HOME });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const p = new Params();
      const pageIndex = req.query.pageIndex ?? 1;
      const pageSize = req.query.pageSize ?? 10;
      const where = `o.type = 0 AND ${farmScope(me, p, 'o.id', 'read')}`;
      const total = (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM organisations o WHERE ${where}`, p.values)).rows[0].n;
      const { rows } = await app.db.query<Record<string, string>>(
        `SELECT o.id, o.name, o.city,
                (SELECT coalesce(sum((g.data->>'areaMu')::numeric), 0)::text FROM resource_records g WHERE g.resource = 'plantGroups' AND g.farm_id = o.id AND coalesce(g.data->>'status', '') <> 'closed') AS area_mu,
                (SELECT count(*)::int FROM resource_records g WHERE g.resource = 'plantGroups' AND g.farm_id = o.id AND coalesce(g.data->>'status', '') <> 'closed') AS open_groups,
                (SELECT count(*)::int FROM harvests h WHERE h.farm_id = o.id) AS harvest_batches,
                (SELECT coalesce(sum(e.amount), 0)::numeric(16,2)::text FROM account_entries e WHERE e.farm_id = o.id AND e.direction = 'income' AND e.category = 'sales') AS sales_income,
                (SELECT count(*)::int FROM trace_codes c WHERE c.farm_id = o.id) AS trace_codes
           FROM organisations o WHERE ${where} ORDER BY o.name, o.id LIMIT ${pageSize} OFFSET ${(pageIndex - 1) * pageSize}`,
        p.values,
      );
      return ok({
        rows: rows.map((r) => ({ id: Number(r.id), name: r.name, city: r.city, areaMu: Number(r.area_mu), openGroups: Number(r.open_groups), harvestBatches: Number(r.harvest_batches), salesIncome: r.sales_income, traceCodes: Number(r.trace_codes) })),
        total,
        pageIndex,
        pageSize,
      });
    },
  );

  app.get('/yxhome/business/byPerson', { schema: { tags, summary: 'Service business of the provider’s farms by technician and by agent (spec §7.3): open and done per person', response: okArray() } }, async (req) => {
    const me = requireCan(req, { menus: PROVIDER_HOME });
    const p = new Params();
    const { rows } = await app.db.query<{ person: string; role: string; open: number; done: number }>(
      `SELECT u.name AS person, x.role, count(*) FILTER (WHERE x.status IN (0, 1))::int AS open, count(*) FILTER (WHERE x.status IN (2, 3))::int AS done
         FROM (SELECT b.techman_id AS user_id, 'technician' AS role, b.status FROM business b WHERE b.techman_id IS NOT NULL AND ${farmScope(me, p, 'b.farm_id', 'read')}
               UNION ALL SELECT b.agent_id, 'agent', b.status FROM business b WHERE b.agent_id IS NOT NULL AND ${farmScope(me, p, 'b.farm_id', 'read')}) x
         JOIN users u ON u.id = x.user_id GROUP BY u.name, x.role ORDER BY x.role DESC, u.name`,
      p.values,
    );
    const roleName = { zh: { technician: '技术员', agent: '客户经理' }, en: { technician: 'technician', agent: 'agent' }, es: { technician: 'técnico', agent: 'agente' } }[req.lang];
    return ok(rows.map((r) => ({ person: `${r.person}（${roleName[r.role as 'agent' | 'technician']}）`, role: r.role, open: r.open, done: r.done })));
  });

  app.get(
    '/agricultureKnowledge/search/page',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Search across the knowledge base: crops, planting rules, production standards, farm-work types and published articles, by name and description',
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, keyword: { type: 'string', maxLength: 64 }, kind: { type: 'string', enum: ['', 'crops', 'plantRules', 'productionStandards', 'farmWorkTypes', 'articles'] } } },
        response: okPage(),
      },
    },
    async (req) => {
      requireCan(req, { menus: KNOWLEDGE_HOME });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const pageIndex = req.query.pageIndex ?? 1;
      const pageSize = req.query.pageSize ?? 20;
      const p = new Params();
      const kinds = ['crops', 'plantRules', 'productionStandards', 'farmWorkTypes', 'articles'];
      const where = [`r.resource = ANY(${p.add(req.query.kind ? [req.query.kind] : kinds)}::text[])`, `(r.resource <> 'articles' OR r.data->>'status' = '1')`];
      const kw = req.query.keyword?.trim();
      if (kw) {
        const like = p.add(`%${kw}%`);
        where.push(`(coalesce(r.data->>'name', r.data->>'title') ILIKE ${like} OR coalesce(r.data->>'description', r.data->>'summary', '') ILIKE ${like})`);
      }
      const union = `SELECT r.resource AS kind, r.id, coalesce(r.data->>'name', r.data->>'title') AS title, left(coalesce(r.data->>'description', r.data->>'summary', ''), 120) AS summary
                       FROM resource_records r WHERE ${where.join(' AND ')}`;
      const total = (await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${union}) x`, p.values)).rows[0].n;
      const { rows } = await app.db.query<{ kind: string; id: string; title: string; summary: string }>(`SELECT * FROM (${union}) x ORDER BY x.kind, x.title, x.id LIMIT ${pageSize} OFFSET ${(pageIndex - 1) * pageSize}`, p.values);
      return ok({ rows: rows.map((r) => ({ id: `${r.kind}:${r.id}`, kind: r.kind, recordId: Number(r.id), title: r.title, summary: r.summary })), total, pageIndex, pageSize });
    },
  );

  app.get('/bigScreen/region', { schema: { tags, summary: 'The regional big screen (/qiqihaer) of the configured city: farms, area planted, open groups, this year’s harvest batches and trace scans, crops by area; aggregates only', response: okObject() } }, async (req) => {
    caller(req);
    const city = app.config.headerTitleCity;
    const year = `${today().slice(0, 4)}-01-01`;
    const { rows } = await app.db.query<Record<string, string | number>>(
      `WITH farms AS (SELECT id FROM organisations WHERE type = 0 AND city = $1)
       SELECT (SELECT count(*)::int FROM farms) AS farms,
              (SELECT coalesce(sum((g.data->>'areaMu')::numeric), 0)::text FROM resource_records g WHERE g.resource = 'plantGroups' AND g.farm_id IN (SELECT id FROM farms) AND coalesce(g.data->>'status', '') NOT IN ('closed', 'harvested')) AS area_mu,
              (SELECT count(*)::int FROM resource_records g WHERE g.resource = 'plantGroups' AND g.farm_id IN (SELECT id FROM farms) AND coalesce(g.data->>'status', '') NOT IN ('closed', 'harvested')) AS open_groups,
              (SELECT count(*)::int FROM harvests h WHERE h.farm_id IN (SELECT id FROM farms) AND h.harvested_on >= $2::date) AS harvest_batches,
              (SELECT coalesce(sum(scans), 0)::int FROM trace_codes c WHERE c.farm_id IN (SELECT id FROM farms)) AS trace_scans`,
      [city, year],
    );
    const crops = await app.db.query<{ crop: string; area: string }>(
      `SELECT coalesce(c.data->>'name', '—') AS crop, sum((g.data->>'areaMu')::numeric)::text AS area
         FROM resource_records g LEFT JOIN resource_records c ON c.resource = 'crops' AND c.id = (g.data->>'cropId')::bigint
        WHERE g.resource = 'plantGroups' AND g.farm_id IN (SELECT id FROM organisations WHERE type = 0 AND city = $1)
        GROUP BY 1 ORDER BY sum((g.data->>'areaMu')::numeric) DESC NULLS LAST LIMIT 8`,
      [city],
    );
    const r = rows[0];
    return ok({ city, farms: r.farms, areaMu: Number(r.area_mu), openGroups: r.open_groups, harvestBatches: r.harvest_batches, traceScans: r.trace_scans, crops: crops.rows.map((c) => ({ crop: c.crop, areaMu: Number(c.area) })) });
  });

  app.get('/dashboard/mine', { schema: { tags, summary: 'The personal start page (/dashboard): the caller’s open tasks (assigned to them, soonest due first) and unread notices; any signed-in user, their own rows only', response: okObject() } }, async (req) => {
    const me = caller(req);
    const tasks = await app.db.query<Record<string, string>>(
      `SELECT t.id, t.data->>'title' AS title, t.data->>'dueOn' AS due_on, t.data->>'status' AS status, g.data->>'name' AS group_name
         FROM resource_records t LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = (t.data->>'groupId')::bigint
        WHERE t.resource = 'farmingTasks' AND t.data->>'status' <> 'done' AND t.data->'assigneeIds' @> to_jsonb($1::int)
        ORDER BY t.data->>'dueOn', t.id LIMIT 8`,
      [me.id],
    );
    const notices = await app.db.query<Record<string, string>>(
      `SELECT n.id, n.title, n.created_at FROM notice_receipts r JOIN notices n ON n.id = r.notice_id WHERE r.user_id = $1 AND r.read_at IS NULL ORDER BY n.created_at DESC, n.id DESC LIMIT 8`,
      [me.id],
    );
    const day = today();
    return ok({
      tasks: tasks.rows.map((r) => ({ id: Number(r.id), title: r.title, dueOn: r.due_on, groupName: r.group_name, overdue: !!r.due_on && r.due_on < day })),
      notices: notices.rows.map((r) => ({ id: Number(r.id), title: r.title, createdAt: r.created_at })),
    });
  });
};
