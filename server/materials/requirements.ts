/**
 * Material requirements (docs/materials.md, "Requirements"): what the planting plans still
 * to come need, against the stock. For every open planting group (planned or growing) of the
 * caller's farm scope, the plan items not yet over carry materials per mu; the need is that
 * amount × the group's area, summed per farm, material name and unit. The stock is the
 * ledger's balance of the catalogue material of the same name (the plans name materials in
 * words, the catalogue by goods code). The need is converted to the catalogue's unit: the
 * same unit; a mass or volume of the same family (克 → 公斤); or through what one catalogue
 * unit holds (`contentPerUnit` `contentUnit`: a plan in 克, the catalogue in 袋 of 100 克).
 * Where none applies no shortfall is computed: the row says so rather than guess.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { pageOf, type Page } from '../resources/page.ts';
import { farmScope } from './ledger.ts';
import { unitFactorSql } from './units.ts';

export interface RequirementQuery {
  groupId: number;
  today: string;
  state?: string;
  pageIndex: number;
  pageSize: number;
}

export async function requirementPage(db: Queryable, user: SessionUser, q: RequirementQuery): Promise<Page<Record<string, unknown>>> {
  const p = new Params();
  const where = [`g.resource = 'plantGroups'`, farmScope(user, p, 'g.farm_id', 'read'), `coalesce(g.data->>'status', 'planned') IN ('planned', 'growing')`];
  if (q.groupId) where.push(`g.id = ${p.add(q.groupId)}`);
  const today = p.add(q.today);
  const needs = `
    SELECT g.farm_id, m->>'name' AS material, m->>'unit' AS unit,
           sum((m->>'amountPerMu')::numeric * coalesce((g.data->>'areaMu')::numeric, 0)) AS needed,
           min(pi.data->>'startOn') AS first_on,
           string_agg(DISTINCT g.data->>'name', '、') AS groups,
           CASE WHEN count(DISTINCT g.id) = 1 THEN min(g.id) END AS group_id,
           count(DISTINCT pi.id)::int AS items
      FROM resource_records g
      JOIN resource_records pl ON pl.resource = 'plantPlans' AND pl.data->>'groupId' = g.id::text AND coalesce(pl.data->>'reviewStatus', '') <> 'rejected'
      JOIN resource_records pi ON pi.resource = 'planItems' AND pi.data->>'planId' = pl.id::text
      CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(pi.data->'materials') = 'array' THEN pi.data->'materials' ELSE '[]'::jsonb END) m
     WHERE ${where.join(' AND ')} AND coalesce(pi.data->>'endOn', pi.data->>'startOn') >= ${today}
       AND m->>'name' IS NOT NULL AND jsonb_typeof(m->'amountPerMu') = 'number'
     GROUP BY g.farm_id, m->>'name', m->>'unit'`;
  const rowsSql = `
    SELECT n.*, c.id AS material_id, c.data->>'unit' AS stock_unit, c.data->>'goodsCode' AS goods_code,
           (SELECT coalesce(sum(b.quantity), 0) FROM material_balances b WHERE b.material_id = c.id) AS stock,
           -- Catalogue units per need unit: the same unit, the same family, or through the package's content.
           ${unitFactorSql('n.unit', `c.data->>'unit'`, `(c.data->>'contentPerUnit')::numeric`, `c.data->>'contentUnit'`)} AS factor
      FROM (${needs}) n
      LEFT JOIN LATERAL (SELECT id, data FROM resource_records c WHERE c.resource = 'farmMaterials' AND c.farm_id = n.farm_id AND lower(c.data->>'name') = lower(n.material) ORDER BY c.id LIMIT 1) c ON TRUE`;
  const stateSql = `
    SELECT x.*, x.needed * x.factor AS needed_stock,
           CASE WHEN x.material_id IS NULL THEN 'notInCatalogue'
                WHEN x.factor IS NULL THEN 'unitDiffers'
                WHEN x.stock < x.needed * x.factor THEN 'short' ELSE 'enough' END AS state
      FROM (${rowsSql}) x`;
  const filter = q.state ? `WHERE s.state = ${p.add(q.state)}` : '';
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${stateSql}) s ${filter}`, p.values)).rows[0].n;
  const { rows } = await db.query<Record<string, string | number | null>>(
    `SELECT s.farm_id, s.group_id, s.material, s.unit, trim_scale(round(s.needed, 3))::text AS needed, s.first_on, s.groups, s.items, s.material_id, s.goods_code,
            s.stock_unit, trim_scale(s.stock)::text AS stock, s.state, trim_scale(round(s.needed_stock, 3))::text AS needed_stock,
            CASE WHEN s.state = 'short' THEN trim_scale(round(s.needed_stock - s.stock, 3))::text END AS shortfall
       FROM (${stateSql}) s ${filter}
      ORDER BY CASE s.state WHEN 'short' THEN 0 WHEN 'unitDiffers' THEN 1 WHEN 'notInCatalogue' THEN 2 ELSE 3 END, s.first_on, s.material
      LIMIT ${p.add(q.pageSize)} OFFSET ${p.add((q.pageIndex - 1) * q.pageSize)}`,
    p.values,
  );
  return pageOf(
    rows.map((r) => ({
      id: `${r.farm_id}-${r.material}-${r.unit}`,
      material: r.material,
      unit: r.unit,
      needed: Number(r.needed),
      firstNeededOn: r.first_on,
      groups: r.groups,
      // The group when the row is one group's (its trace is a row action).
      groupId: r.group_id === null ? null : Number(r.group_id),
      planItems: r.items,
      materialId: r.material_id === null ? null : Number(r.material_id),
      goodsCode: r.goods_code,
      stock: r.material_id === null ? null : Number(r.stock),
      stockUnit: r.stock_unit,
      // The need in the catalogue's unit (null where it cannot be converted).
      neededInStockUnit: r.needed_stock === null ? null : Number(r.needed_stock),
      state: r.state,
      shortfall: r.shortfall === null ? null : Number(r.shortfall),
    })),
    total,
    q.pageIndex,
    q.pageSize,
  );
}
