/**
 * The catalogue's rules on the resource engine's generic writes (handed to the engine in
 * server/modules.ts): a goods code names one material of a farm; a safety interval is a
 * pesticide's; a material, store or supplier that the ledger names is never deleted (its
 * movements are history). Every hook runs inside the write's transaction, so a refusal
 * changes nothing.
 */
import { ApiError, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { CreateContext, CreatedContext, DeleteContext, HookContext, ResourceExtension, UpdateContext } from '../resources/extensions.ts';
import { MaterialsLedger } from './ledger.ts';
import { movementNumber } from './numbers.ts';
import './order-messages.ts';
import { invalidInput } from '../resources/validation.ts';
import './messages.ts';

type Data = Record<string, unknown>;

async function checkMaterial(ctx: HookContext, data: Data, farmId: number | null, self: number | null): Promise<void> {
  const errors: FieldError[] = [];
  if (data.safetyIntervalDays !== undefined && data.category !== 'pesticide') {
    errors.push({ field: 'safetyIntervalDays', message: t(ctx.lang, 'materials.safetyIntervalPesticideOnly') });
  }
  // What one unit holds comes as a pair, in a unit other than the material's own.
  if (data.contentPerUnit !== undefined && (typeof data.contentUnit !== 'string' || !data.contentUnit.trim())) {
    errors.push({ field: 'contentUnit', message: t(ctx.lang, 'materials.contentUnitNeeded') });
  }
  if (typeof data.contentUnit === 'string' && data.contentUnit.trim() && data.contentPerUnit === undefined) {
    errors.push({ field: 'contentPerUnit', message: t(ctx.lang, 'materials.contentPerUnitNeeded') });
  }
  if (typeof data.contentUnit === 'string' && data.contentUnit.trim() === data.unit) {
    errors.push({ field: 'contentUnit', message: t(ctx.lang, 'materials.contentUnitSame', { unit: String(data.unit) }) });
  }
  if (typeof data.goodsCode === 'string') {
    // Serialises two writes of the same code on one farm; the unique index is the last guard.
    await ctx.tx.query('SELECT pg_advisory_xact_lock(74250, $1)', [farmId ?? 0]);
    const { rows } = await ctx.tx.query(
      `SELECT 1 FROM resource_records WHERE resource = 'farmMaterials' AND farm_id IS NOT DISTINCT FROM $1 AND data->>'goodsCode' = $2 AND id <> $3`,
      [farmId, data.goodsCode, self ?? 0],
    );
    if (rows.length) errors.push({ field: 'goodsCode', message: t(ctx.lang, 'materials.goodsCodeTaken', { code: data.goodsCode }) });
  }
  if (errors.length) throw invalidInput(errors, ctx.lang);
}

/** Refuses deleting records the ledger names (`column` of movements or lines). */
function keepIfUsed(resource: string, query: string): ResourceExtension {
  return {
    resource,
    hooks: {
      beforeDelete: async (ctx: DeleteContext) => {
        const { rows } = await ctx.tx.query<{ id: number }>(query, [ctx.ids]);
        if (!rows.length) return;
        const used = Number(rows[0].id);
        const name = String(ctx.current.get(used)?.[ctx.doc.displayField] ?? used);
        throw invalidInput([{ field: 'id', message: t(ctx.lang, 'materials.inUse', { name }) }], ctx.lang);
      },
    },
  };
}

// ——— farming records: the materials used on a task, drawn from a store ————————————————

interface RecordMaterial {
  materialId?: number;
  batch?: string;
  quantity?: number;
}

/** The lines a record draws from stock: its materials that name a catalogue material. */
function drawnLines(data: Data): { materialId: number; batch?: string; quantity: number; index: number }[] {
  const materials = Array.isArray(data.materials) ? (data.materials as RecordMaterial[]) : [];
  return materials
    .map((m, index) => ({ materialId: m.materialId, batch: m.batch, quantity: m.quantity, index }))
    .filter((m): m is { materialId: number; batch: string | undefined; quantity: number; index: number } => typeof m.materialId === 'number' && typeof m.quantity === 'number' && m.quantity > 0)
    .map(({ batch, ...rest }) => (batch ? { ...rest, batch } : rest));
}

/** What decides the stock-out: the store and the drawn lines. */
const drawKey = (data: Data) => JSON.stringify([data.storeId ?? null, drawnLines(data).map(({ materialId, batch, quantity }) => [materialId, batch ?? '', quantity])]);

/**
 * The record's standing stock-out. One that was reversed no longer stands: its link is
 * dropped here, so the record's materials change again and the next save draws anew.
 */
async function postedMovement(ctx: HookContext, recordId: number): Promise<number | null> {
  const { rows } = await ctx.tx.query<{ movement_id: number; reversed: boolean }>(
    'SELECT f.movement_id, EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = f.movement_id) AS reversed FROM farming_record_movements f WHERE f.record_id = $1',
    [recordId],
  );
  if (!rows[0]) return null;
  if (rows[0].reversed) {
    await ctx.tx.query('DELETE FROM farming_record_movements WHERE record_id = $1', [recordId]);
    return null;
  }
  return Number(rows[0].movement_id);
}

/**
 * Posts the record's stock-out through the ledger in the record's own transaction: from
 * `storeId`, to the task's planting group and the task; an over-draw is refused on the
 * record's line (`materials.2.quantity`) and the record is not stored either.
 */
async function drawForRecord(ctx: HookContext, recordId: number, data: Data): Promise<void> {
  const lines = drawnLines(data);
  if (!lines.length) return;
  if (typeof data.storeId !== 'number') throw invalidInput([{ field: 'storeId', message: t(ctx.lang, 'records.storeNeeded') }], ctx.lang);
  const { rows } = await ctx.tx.query<{ group_id: string | null }>(`SELECT data->>'groupId' AS group_id FROM resource_records WHERE resource = 'farmingTasks' AND id = $1`, [data.taskId]);
  const groupId = rows[0]?.group_id ? Number(rows[0].group_id) : undefined;
  try {
    const movementId = await ledger.stockOut(ctx.tx, ctx.req, ctx.user, {
      storeId: data.storeId,
      movedOn: String(data.doneOn),
      ...(groupId ? { groupId } : {}),
      taskId: Number(data.taskId),
      purpose: t(ctx.lang, 'records.purpose'),
      reference: `NS${String(recordId).padStart(6, '0')}`,
      lines: lines.map(({ materialId, batch, quantity }) => ({ materialId, quantity, ...(batch ? { batch } : {}) })),
    });
    await ctx.tx.query('INSERT INTO farming_record_movements(record_id, movement_id) VALUES ($1, $2)', [recordId, movementId]);
  } catch (e) {
    // The ledger names its lines `lines.N`; the record's are `materials.<index in the record>`.
    if (!(e instanceof ApiError) || !Array.isArray(e.details)) throw e;
    const mapped = e.details.map((d) => {
      const m = /^lines\.(\d+)\.(.*)$/.exec(d.field);
      return m ? { field: `materials.${lines[Number(m[1])].index}.${m[2]}`, message: d.message } : d;
    });
    throw invalidInput(mapped, ctx.lang);
  }
}

const ledger = new MaterialsLedger();

const farmingRecordDraws: ResourceExtension = {
  resource: 'farmingRecords',
  hooks: {
    afterCreate: async (ctx: CreatedContext) => drawForRecord(ctx, ctx.id, ctx.data),
    beforeUpdate: async (ctx: UpdateContext) => {
      const posted = await postedMovement(ctx, ctx.id);
      // A confirmed stock-out is never edited: the record's draw stays as posted.
      if (posted !== null && drawKey(ctx.data) !== drawKey(ctx.current)) {
        throw invalidInput([{ field: 'materials', message: t(ctx.lang, 'records.materialStock', { number: movementNumber('out', posted) }) }], ctx.lang);
      }
    },
    afterUpdate: async (ctx: UpdateContext) => {
      if ((await postedMovement(ctx, ctx.id)) === null) await drawForRecord(ctx, ctx.id, ctx.data);
    },
    beforeDelete: async (ctx: DeleteContext) => {
      const { rows } = await ctx.tx.query<{ movement_id: number }>(
        `SELECT f.movement_id FROM farming_record_movements f WHERE f.record_id = ANY($1::bigint[])
            AND NOT EXISTS (SELECT 1 FROM material_movements r WHERE r.reverses_id = f.movement_id) ORDER BY f.record_id LIMIT 1`,
        [ctx.ids],
      );
      if (rows[0]) throw invalidInput([{ field: 'id', message: t(ctx.lang, 'records.materialStock', { number: movementNumber('out', Number(rows[0].movement_id)) }) }], ctx.lang);
    },
  },
};

export const materialsResourceExtensions: ResourceExtension[] = [
  farmingRecordDraws,
  {
    resource: 'farmMaterials',
    hooks: {
      beforeCreate: async (ctx: CreateContext) => checkMaterial(ctx, ctx.data, ctx.farmId, null),
      beforeUpdate: async (ctx: UpdateContext) => checkMaterial(ctx, ctx.data, ctx.farmId, ctx.id),
    },
  },
  keepIfUsed('farmMaterials', 'SELECT DISTINCT material_id AS id FROM material_movement_lines WHERE material_id = ANY($1::bigint[]) ORDER BY 1 LIMIT 1'),
  keepIfUsed('farmStores', 'SELECT DISTINCT store_id AS id FROM material_movements WHERE store_id = ANY($1::bigint[]) ORDER BY 1 LIMIT 1'),
  keepIfUsed('farmMaterialsSupplier', 'SELECT DISTINCT supplier_id AS id FROM material_movements WHERE supplier_id = ANY($1::bigint[]) ORDER BY 1 LIMIT 1'),
];
