/**
 * The catalogue's rules on the resource engine's generic writes (handed to the engine in
 * server/modules.ts): a goods code names one material of a farm; a safety interval is a
 * pesticide's; a material, store or supplier that the ledger names is never deleted (its
 * movements are history). Every hook runs inside the write's transaction, so a refusal
 * changes nothing.
 */
import type { FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { CreateContext, DeleteContext, HookContext, ResourceExtension, UpdateContext } from '../resources/extensions.ts';
import { invalidInput } from '../resources/validation.ts';
import './messages.ts';

type Data = Record<string, unknown>;

async function checkMaterial(ctx: HookContext, data: Data, farmId: number | null, self: number | null): Promise<void> {
  const errors: FieldError[] = [];
  if (data.safetyIntervalDays !== undefined && data.category !== 'pesticide') {
    errors.push({ field: 'safetyIntervalDays', message: t(ctx.lang, 'materials.safetyIntervalPesticideOnly') });
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

export const materialsResourceExtensions: ResourceExtension[] = [
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
