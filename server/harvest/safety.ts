/**
 * What was applied to a planting group while its crop grew, and where a harvest date stands
 * against each pesticide's safety interval (docs/harvest-sales-trace.md, "Safety intervals").
 * One query serves the harvest list's flag, the refusal at harvest and the public trace page,
 * so the three never disagree.
 *
 * An application is a stock-out (not a reversal, not reversed) to the group, or to one of the
 * group's farm-work tasks, of the group's farm, dated within the growing window: from the
 * group's planting day (when recorded) to the harvest day, both included.
 */
import type { Queryable } from '../db/database.ts';
import { movementNumber } from '../materials/numbers.ts';

/** A harvest, recorded or about to be: the group it comes from and its day. */
export interface HarvestOfGroup {
  key: number;
  groupId: number;
  farmId: number;
  harvestedOn: string;
}

/**
 * `inside`: harvested before the first safe day; `clear`: on or after it; `noInterval`: the
 * input has no safety interval (a fertiliser, or a pesticide whose interval is not recorded).
 */
export type IntervalStatus = 'inside' | 'clear' | 'noInterval';

export interface Application {
  movementId: number;
  movementNumber: string;
  appliedOn: string;
  materialId: number;
  material: string;
  category: string | null;
  quantity: string;
  unit: string | null;
  intervalDays: number | null;
  safeFrom: string | null;
  status: IntervalStatus;
}

/** For each harvest key, the applications of its growing window, oldest first. */
export async function applicationsBefore(db: Queryable, harvests: HarvestOfGroup[]): Promise<Map<number, Application[]>> {
  const out = new Map<number, Application[]>();
  for (const h of harvests) out.set(h.key, []);
  if (!harvests.length) return out;
  const { rows } = await db.query<{
    key: string; movement_id: string; moved_on: string; material_id: string; material: string; category: string | null; quantity: string; unit: string | null; days: number | null; safe_from: string | null; harvested_on: string;
  }>(
    `SELECT h.key, m.id AS movement_id, m.moved_on::text, mat.id AS material_id, mat.data->>'name' AS material, mat.data->>'category' AS category,
            trim_scale(sum(l.quantity))::text AS quantity, mat.data->>'unit' AS unit, iv.days, (m.moved_on + iv.days)::text AS safe_from, h.harvested_on::text
       FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::date[]) AS h(key, group_id, farm_id, harvested_on)
       LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id
       JOIN material_movements m ON m.farm_id = h.farm_id AND m.direction = 'out' AND m.reverses_id IS NULL
                                AND (m.group_id = h.group_id
                                     OR m.task_id IN (SELECT t.id FROM resource_records t WHERE t.resource = 'farmingTasks' AND t.farm_id = h.farm_id AND t.data->>'groupId' = h.group_id::text))
                                AND m.moved_on <= h.harvested_on
                                AND (g.data->>'plantedOn' IS NULL OR m.moved_on >= (g.data->>'plantedOn')::date)
                                AND NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = m.id)
       JOIN material_movement_lines l ON l.movement_id = m.id
       JOIN resource_records mat ON mat.resource = 'farmMaterials' AND mat.id = l.material_id
       CROSS JOIN LATERAL (SELECT CASE WHEN mat.data->>'category' = 'pesticide' THEN (mat.data->>'safetyIntervalDays')::int END AS days) iv
      GROUP BY h.key, h.harvested_on, m.id, m.moved_on, mat.id, iv.days
      ORDER BY h.key, m.moved_on, m.id, mat.id`,
    [harvests.map((h) => h.key), harvests.map((h) => h.groupId), harvests.map((h) => h.farmId), harvests.map((h) => h.harvestedOn)],
  );
  for (const r of rows) {
    const status: IntervalStatus = r.safe_from === null ? 'noInterval' : r.harvested_on < r.safe_from ? 'inside' : 'clear';
    out.get(Number(r.key))?.push({
      movementId: Number(r.movement_id),
      movementNumber: movementNumber('out', Number(r.movement_id)),
      appliedOn: r.moved_on,
      materialId: Number(r.material_id),
      material: r.material,
      category: r.category,
      quantity: r.quantity,
      unit: r.unit,
      intervalDays: r.days === null ? null : Number(r.days),
      safeFrom: r.safe_from,
      status,
    });
  }
  return out;
}

/** The applications a harvest falls inside the interval of, the latest safe day first. */
export function insideIntervals(applications: Application[]): Application[] {
  return applications.filter((a) => a.status === 'inside').sort((a, b) => (b.safeFrom ?? '').localeCompare(a.safeFrom ?? '') || a.movementId - b.movementId);
}

/** The day of the last input applied in the window, or null when none was. */
export function lastAppliedOn(applications: Application[]): string | null {
  return applications.reduce<string | null>((last, a) => (last === null || a.appliedOn > last ? a.appliedOn : last), null);
}
