/**
 * The demo group's shared-materials market (docs/materials.md, "Shared materials"): offers
 * between the two farms of the bloc (禾丰生态农场 and 嫩江源合作农场) in every state — open,
 * requested (a request waiting), handed over (its hand-over posted as the ledger would: a
 * stock-out at the offering farm, a stock-in at the other, linked in material_handovers,
 * balances moved), with a refused and a cancelled request — and one offer of farm2 that farm
 * requested. Runs at the end of the materials seed, after the balances exist.
 */
import type { Queryable } from '../db/database.ts';

interface Farm {
  id: number;
  user_id: number | null;
  name: string;
}
interface Stock {
  store_id: number;
  material_id: number;
  code: string;
  name: string;
  batch: string;
  quantity: number;
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The farm's largest stocks of materials the other farm also lists (same goods code), one row per material. */
async function stocks(db: Queryable, farm: Farm, other: Farm): Promise<Stock[]> {
  const { rows } = await db.query<Stock>(
    `SELECT DISTINCT ON (b.material_id) b.store_id, b.material_id, m.data->>'goodsCode' AS code, m.data->>'name' AS name, b.batch, b.quantity::float8 AS quantity
       FROM material_balances b JOIN resource_records m ON m.id = b.material_id
      WHERE b.farm_id = $1 AND b.quantity >= 6 AND m.data->>'category' <> 'pesticide'
        AND EXISTS (SELECT 1 FROM resource_records o WHERE o.resource = 'farmMaterials' AND o.farm_id = $2 AND o.data->>'goodsCode' = m.data->>'goodsCode')
      ORDER BY b.material_id, b.quantity DESC`,
    [farm.id, other.id],
  );
  return rows.map((r) => ({ ...r, store_id: Number(r.store_id), material_id: Number(r.material_id) })).sort((a, b) => b.quantity - a.quantity || a.material_id - b.material_id);
}

async function offer(db: Queryable, farm: Farm, s: Stock, quantity: number, price: number, validUntil: string, note: string, createdOn: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO share_offers(farm_id, store_id, material_id, batch, quantity, unit_price, valid_until, note, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::date + time '10:00', $10::date + time '10:00') RETURNING id`,
    [farm.id, s.store_id, s.material_id, s.batch, quantity, price, validUntil, note, farm.user_id, createdOn],
  );
  return Number(rows[0].id);
}

async function request(db: Queryable, offerId: number, farm: Farm, storeId: number, quantity: number, status: string, note: string, createdOn: string, reason: string | null = null): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO share_requests(offer_id, farm_id, to_store_id, quantity, note, status, reason, created_by, created_at, decided_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::date + time '14:00', CASE WHEN $6 = 'requested' THEN NULL ELSE $9::date + time '16:00' END) RETURNING id`,
    [offerId, farm.id, storeId, quantity, note, status, reason, farm.user_id, createdOn],
  );
  return Number(rows[0].id);
}

/** A hand-over as MaterialsLedger.handOver posts it: stock-out (at the batch's average cost), stock-in of the same goods code, balances, link. */
async function handOver(db: Queryable, from: Farm, to: Farm, s: Stock, toStoreId: number, quantity: number, movedOn: string, offerNo: string, requestNo: string): Promise<number> {
  const head = async (farm: Farm, direction: string, storeId: number, purpose: string, reference: string | null) =>
    Number(
      (
        await db.query<{ id: number }>(
          `INSERT INTO material_movements(farm_id, direction, store_id, moved_on, purpose, reference, note, created_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $4::date + time '16:00') RETURNING id`,
          [farm.id, direction, storeId, movedOn, purpose, reference, `共享农资 ${requestNo}`, farm.user_id],
        )
      ).rows[0].id,
    );
  const outId = await head(from, 'out', s.store_id, `移交给 ${to.name}`, offerNo);
  const { rows: cost } = await db.query<{ amount: string; unit_price: string; produced_on: string | null; expires_on: string | null }>(
    `UPDATE material_balances b SET quantity = b.quantity - $4::numeric,
            value = CASE WHEN b.quantity = $4::numeric THEN 0 ELSE b.value - round(b.value * $4::numeric / b.quantity, 2) END
       FROM (SELECT quantity AS q0, value AS v0 FROM material_balances WHERE store_id = $1 AND material_id = $2 AND batch = $3) o
      WHERE b.store_id = $1 AND b.material_id = $2 AND b.batch = $3 AND b.quantity >= $4::numeric
      RETURNING (o.v0 - b.value)::text AS amount, round(o.v0 / o.q0, 4)::text AS unit_price, b.produced_on::text, b.expires_on::text`,
    [s.store_id, s.material_id, s.batch, quantity],
  );
  const c = cost[0];
  await db.query(
    `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on) VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8)`,
    [outId, s.material_id, s.batch, quantity, c.unit_price, c.amount, c.produced_on, c.expires_on],
  );
  const theirs = Number(
    (await db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'farmMaterials' AND farm_id = $1 AND data->>'goodsCode' = $2`, [to.id, s.code])).rows[0].id,
  );
  const inId = await head(to, 'in', toStoreId, `接收自 ${from.name}`, `CK${String(outId).padStart(6, '0')}`);
  await db.query(
    `INSERT INTO material_movement_lines(movement_id, line_no, material_id, batch, quantity, unit_price, amount, produced_on, expires_on) VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8)`,
    [inId, theirs, s.batch, quantity, c.unit_price, c.amount, c.produced_on, c.expires_on],
  );
  await db.query(
    `INSERT INTO material_balances(farm_id, store_id, material_id, batch, quantity, value, produced_on, expires_on) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (store_id, material_id, batch) DO UPDATE SET quantity = material_balances.quantity + EXCLUDED.quantity, value = material_balances.value + EXCLUDED.value`,
    [to.id, toStoreId, theirs, s.batch, quantity, c.amount, c.produced_on, c.expires_on],
  );
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO material_handovers(from_farm_id, to_farm_id, out_movement_id, in_movement_id, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6::date + time '16:00') RETURNING id`,
    [from.id, to.id, outId, inId, from.user_id, movedOn],
  );
  return Number(rows[0].id);
}

export async function seedShare(db: Queryable, today: string): Promise<void> {
  if ((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM share_offers')).rows[0].n > 0) return;
  // The two farms of the demo bloc: the first farms (type 0) of the first bloc that has two.
  const { rows: farms } = await db.query<Farm>(
    `SELECT o.id, o.name, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id FROM organisations o
      WHERE o.type = 0 AND o.bloc_id = (SELECT bloc_id FROM organisations WHERE type = 0 AND bloc_id IS NOT NULL GROUP BY bloc_id HAVING count(*) >= 2 ORDER BY bloc_id LIMIT 1)
      ORDER BY o.id LIMIT 2`,
  );
  if (farms.length < 2) return;
  const [farm, farm2] = farms.map((f) => ({ ...f, id: Number(f.id), user_id: f.user_id == null ? null : Number(f.user_id) }));
  const firstStore = async (f: Farm) => Number((await db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'farmStores' AND farm_id = $1 ORDER BY id LIMIT 1`, [f.id])).rows[0].id);
  const farm2Store = await firstStore(farm2);
  const farmStore = await firstStore(farm);
  const mine = await stocks(db, farm, farm2);
  const theirs = await stocks(db, farm2, farm);
  if (mine.length < 3 || !theirs.length) return;
  const part = (s: Stock, share: number) => Math.max(1, Math.floor(s.quantity * share));
  const no = (prefix: string, id: number) => `${prefix}${String(id).padStart(6, '0')}`;

  // 1. Open, nobody asked yet.
  await offer(db, farm, mine[0], part(mine[0], 0.25), 98, addDays(today, 30), '春耕剩余，按进价八折，自提', addDays(today, -3));
  // 2. Requested: farm2 waits for an answer.
  const o2 = await offer(db, farm, mine[1], part(mine[1], 0.4), 180, addDays(today, 20), '仓库腾位置，欢迎集团内农场申领', addDays(today, -6));
  await request(db, o2, farm2, farm2Store, Math.max(1, Math.floor(part(mine[1], 0.4) / 2)), 'requested', '追肥用，下周三前来拉', addDays(today, -2));
  // 3. Handed over once; a second request refused, a third cancelled.
  const q3 = part(mine[2], 0.4);
  const o3 = await offer(db, farm, mine[2], q3, 150, addDays(today, 10), '集团互助', addDays(today, -20));
  const given = Math.max(1, Math.floor(q3 / 2));
  const r3 = await request(db, o3, farm2, farm2Store, given, 'handedOver', '秋施底肥', addDays(today, -18));
  const handover = await handOver(db, farm, farm2, mine[2], farm2Store, given, addDays(today, -17), no('GX', o3), no('SQ', r3));
  await db.query('UPDATE share_requests SET handover_id = $2 WHERE id = $1', [r3, handover]);
  await request(db, o3, farm2, farm2Store, q3, 'refused', '能否全部给我们', addDays(today, -15), '本场也要留一部分，剩余的可以再申请');
  await request(db, o3, farm2, farm2Store, 1, 'cancelled', '先要一袋试试', addDays(today, -12));
  // 4. farm2's offer, requested by farm.
  const o4 = await offer(db, farm2, theirs[0], part(theirs[0], 0.3), 120, addDays(today, 25), '嫩江源多备了一些，集团内平价转让', addDays(today, -4));
  await request(db, o4, farm, farmStore, 1, 'requested', '先调一点应急', addDays(today, -1));
}
