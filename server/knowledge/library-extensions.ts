/**
 * The platform material libraries' rules on the engine's generic writes (docs/materials.md,
 * "Platform libraries"). Every hook runs inside the write's transaction after the engine's
 * authority, validation and reference checks, so a refusal changes nothing:
 *
 * - an entry of the material library (`tankMaterials`) carries the fields of its kind
 *   (`mainType`) only; a pesticide needs its safety interval, a seed or seedling its variety;
 *   a registration number names one entry of a kind;
 * - each kind is written with the element codes of its own list (`tankPesticide:add`, or
 *   the cross-kind `materielManager:add`), not with another kind's: the engine accepts any
 *   alias's code, this narrows it to the kind's (40301); rows say so in `_can`;
 * - a manufacturer's name is unique; a device model is unique per vendor;
 * - a farm's catalogue material linked to a library entry must be of the entry's kind, and
 *   its empty specification, manufacturer, registration number and (pesticide) safety
 *   interval are taken from the entry.
 *
 * The engine's references give the rest: a manufacturer or crop that does not exist is
 * 40001 on its field, and an entry a farm's material links to (a manufacturer an entry or
 * dealer names) is not deleted.
 */
import { ApiError, Status, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { CreateContext, DeleteContext, HookContext, ResourceExtension, UpdateContext } from '../resources/extensions.ts';
import { invalidInput } from '../resources/validation.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { msg } from './library-messages.ts';

type Data = Record<string, unknown>;

export const MAIN_TYPES = ['fertilizer', 'pesticide', 'seed', 'seedling', 'equipmentPart', 'facilityPart'] as const;
export type MainType = (typeof MAIN_TYPES)[number];

/** The menu entry (bigData-kms) of each kind's list; the agricultureKnowledge twin is derived. */
export const KIND_MENU: Record<MainType, string> = {
  fertilizer: 'tankFertilizer',
  pesticide: 'tankPesticide',
  seed: 'tankSeed',
  seedling: 'tankSeedling',
  equipmentPart: 'tankEquipmentAccessories',
  facilityPart: 'tankFacilitiesAccessories',
};

/** Fields every entry may carry. */
const COMMON = new Set(['mainType', 'name', 'factoryId', 'specification', 'unit', 'referencePrice', 'shelfLifeMonths', 'status', 'remark']);

/** The fields of each kind, and those it requires besides the document's own. */
export const KIND_FIELDS: Record<MainType, { fields: string[]; required: string[] }> = {
  fertilizer: { fields: ['registrationNo', 'fertilizerType', 'fertilizerForm', 'nitrogen', 'phosphorus', 'potassium'], required: [] },
  pesticide: { fields: ['registrationNo', 'activeIngredient', 'pesticideType', 'formulation', 'toxicity', 'safetyIntervalDays', 'targets'], required: ['safetyIntervalDays'] },
  seed: { fields: ['cropId', 'variety', 'approvalNo', 'germinationRate', 'purity', 'traits'], required: ['variety'] },
  seedling: { fields: ['cropId', 'variety', 'approvalNo', 'seedlingAgeDays', 'traits'], required: ['variety'] },
  equipmentPart: { fields: ['model', 'suitableFor', 'material'], required: [] },
  facilityPart: { fields: ['model', 'suitableFor', 'material'], required: [] },
};

const isKind = (v: unknown): v is MainType => typeof v === 'string' && (MAIN_TYPES as readonly string[]).includes(v);
const filled = (v: unknown) => v !== undefined && v !== null && v !== '';

function titleOf(doc: ResourceDocument, field: string, lang: Lang): string {
  const p = doc.record.properties[field] as { 'x-title'?: Record<Lang, string> } | undefined;
  return p?.['x-title']?.[lang] ?? field;
}

/** A value of an enum property by its title in `lang` (lower case in English, inside a sentence). */
function enumWord(doc: ResourceDocument, field: string, value: unknown, lang: Lang): string {
  const p = doc.record.properties[field] as { enum?: unknown[]; 'x-enumTitles'?: Record<Lang, string>[] } | undefined;
  const i = p?.enum?.indexOf(value) ?? -1;
  const word = i >= 0 ? p?.['x-enumTitles']?.[i]?.[lang] : undefined;
  if (!word) return String(value);
  return lang === 'en' ? word.toLowerCase() : word;
}

/** The element codes that let `action` change entries of `kind`: the kind's list (either section) or the cross-kind list. */
export function kindCodes(kind: MainType, action: 'add' | 'edit' | 'delete'): string[] {
  const menu = KIND_MENU[kind];
  const twin = `agricultureKnowledge${menu[0].toUpperCase()}${menu.slice(1)}`;
  return [menu, twin, 'materielManager', 'agricultureKnowledgeMaterielManager'].map((m) => `${m}:${action}`);
}

const mayWrite = (user: SessionUser, kind: MainType, action: 'add' | 'edit' | 'delete') => kindCodes(kind, action).some((c) => user.elements.has(c));

function refuseKind(ctx: HookContext, kind: MainType): never {
  throw new ApiError(Status.FORBIDDEN, msg['library.kindForbidden'], { kind: enumWord(ctx.doc, 'mainType', kind, ctx.lang) });
}

async function checkEntry(ctx: HookContext, data: Data, self: number | null): Promise<void> {
  const kind = data.mainType;
  // An unknown kind is the schema's refusal (enum); nothing more to say here.
  if (!isKind(kind)) return;
  const { fields, required } = KIND_FIELDS[kind];
  const word = enumWord(ctx.doc, 'mainType', kind, ctx.lang);
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(data)) {
    if (!(field in ctx.doc.record.properties) || COMMON.has(field) || fields.includes(field) || !filled(value)) continue;
    errors.push({ field, message: t(ctx.lang, msg['library.fieldNotOfKind'], { field: titleOf(ctx.doc, field, ctx.lang), kind: word }) });
  }
  for (const field of required) {
    if (!filled(data[field])) errors.push({ field, message: t(ctx.lang, msg['library.requiredForKind'], { field: titleOf(ctx.doc, field, ctx.lang), kind: word }) });
  }
  if (typeof data.registrationNo === 'string' && fields.includes('registrationNo')) {
    // Serialises writes of registration numbers; the partial unique index is the last guard.
    await ctx.tx.query('SELECT pg_advisory_xact_lock(74261, 1)');
    const { rows } = await ctx.tx.query<{ name: string }>(
      `SELECT data->>'name' AS name FROM resource_records
        WHERE resource = 'tankMaterials' AND data->>'mainType' = $1 AND data->>'registrationNo' = $2 AND id <> $3 LIMIT 1`,
      [kind, data.registrationNo, self ?? 0],
    );
    if (rows[0]) errors.push({ field: 'registrationNo', message: t(ctx.lang, msg['library.registrationTaken'], { kind: word, no: data.registrationNo, name: rows[0].name }) });
  }
  if (errors.length) throw invalidInput(errors, ctx.lang);
}

/** Refuses a second record of `resource` whose `fields` are equal (case and outer spaces aside). */
async function checkUnique(ctx: HookContext, data: Data, self: number | null, fields: string[], lockKey: number, refuse: (lang: Lang) => FieldError): Promise<void> {
  if (!fields.every((f) => typeof data[f] === 'string')) return;
  await ctx.tx.query('SELECT pg_advisory_xact_lock(74262, $1)', [lockKey]);
  const where = fields.map((f, i) => `lower(btrim(data->>'${f}')) = lower(btrim($${i + 2}::text))`).join(' AND ');
  const { rows } = await ctx.tx.query(`SELECT 1 FROM resource_records WHERE resource = $1 AND ${where} AND id <> $${fields.length + 2} LIMIT 1`, [
    ctx.doc.name,
    ...fields.map((f) => data[f]),
    self ?? 0,
  ]);
  if (rows.length) throw invalidInput([refuse(ctx.lang)], ctx.lang);
}

const materialLibrary: ResourceExtension = {
  resource: 'tankMaterials',
  hooks: {
    beforeCreate: async (ctx: CreateContext) => {
      if (isKind(ctx.data.mainType) && !mayWrite(ctx.user, ctx.data.mainType, 'add')) refuseKind(ctx, ctx.data.mainType);
      await checkEntry(ctx, ctx.data, null);
    },
    beforeUpdate: async (ctx: UpdateContext) => {
      for (const kind of new Set([ctx.current.mainType, ctx.data.mainType])) if (isKind(kind) && !mayWrite(ctx.user, kind, 'edit')) refuseKind(ctx, kind);
      await checkEntry(ctx, ctx.data, ctx.id);
    },
    beforeDelete: async (ctx: DeleteContext) => {
      for (const row of ctx.current.values()) if (isKind(row.mainType) && !mayWrite(ctx.user, row.mainType, 'delete')) refuseKind(ctx, row.mainType);
    },
    rowHints: ({ user, row }) => {
      const kind = row.mainType;
      if (!isKind(kind)) return undefined;
      return { edit: mayWrite(user, kind, 'edit'), delete: mayWrite(user, kind, 'delete') };
    },
  },
};

const manufacturers: ResourceExtension = {
  resource: 'tankFactories',
  hooks: {
    beforeCreate: (ctx: CreateContext) => checkUnique(ctx, ctx.data, null, ['name'], 1, (lang) => ({ field: 'name', message: t(lang, msg['library.factoryNameTaken'], { name: String(ctx.data.name) }) })),
    beforeUpdate: (ctx: UpdateContext) => checkUnique(ctx, ctx.data, ctx.id, ['name'], 1, (lang) => ({ field: 'name', message: t(lang, msg['library.factoryNameTaken'], { name: String(ctx.data.name) }) })),
  },
};

const deviceModelTaken = (data: Data) => (lang: Lang) => ({ field: 'model', message: t(lang, msg['library.deviceModelTaken'], { vendor: String(data.vendor), model: String(data.model) }) });
const deviceModels: ResourceExtension = {
  resource: 'deviceModels',
  hooks: {
    beforeCreate: (ctx: CreateContext) => checkUnique(ctx, ctx.data, null, ['vendor', 'model'], 2, deviceModelTaken(ctx.data)),
    beforeUpdate: (ctx: UpdateContext) => checkUnique(ctx, ctx.data, ctx.id, ['vendor', 'model'], 2, deviceModelTaken(ctx.data)),
  },
};

/** The farm catalogue's link: the entry's kind is the material's category; blanks come from the entry. */
async function linkToLibrary(ctx: HookContext, data: Data): Promise<void> {
  if (typeof data.libraryId !== 'number') return;
  const { rows } = await ctx.tx.query<{ data: Data; factory: string | null }>(
    `SELECT m.data, f.data->>'name' AS factory FROM resource_records m
       LEFT JOIN resource_records f ON f.resource = 'tankFactories' AND f.id = (m.data->>'factoryId')::bigint
      WHERE m.resource = 'tankMaterials' AND m.id = $1`,
    [data.libraryId],
  );
  // A missing entry is the engine's reference refusal, which ran before.
  const entry = rows[0];
  if (!entry) return;
  const kind = entry.data.mainType;
  if (kind !== data.category) {
    const categoryDoc = ctx.doc;
    const message = t(ctx.lang, msg['library.kindMismatch'], {
      kind: enumWord(categoryDoc, 'category', kind, ctx.lang),
      category: enumWord(categoryDoc, 'category', data.category, ctx.lang),
    });
    throw invalidInput([{ field: 'libraryId', message }], ctx.lang);
  }
  const fill = (field: string, value: unknown) => {
    if (!filled(data[field]) && filled(value)) data[field] = value;
  };
  fill('specification', entry.data.specification);
  fill('manufacturer', entry.factory);
  if (kind === 'fertilizer' || kind === 'pesticide') fill('registrationNo', entry.data.registrationNo);
  if (kind === 'seed' || kind === 'seedling') fill('registrationNo', entry.data.approvalNo);
  if (kind === 'pesticide') fill('safetyIntervalDays', entry.data.safetyIntervalDays);
}

const farmCatalogueLink: ResourceExtension = {
  resource: 'farmMaterials',
  hooks: {
    beforeCreate: (ctx: CreateContext) => linkToLibrary(ctx, ctx.data),
    beforeUpdate: (ctx: UpdateContext) => linkToLibrary(ctx, ctx.data),
  },
};

export const libraryResourceExtensions: ResourceExtension[] = [materialLibrary, manufacturers, deviceModels, farmCatalogueLink];
