/**
 * The file field type on the resource engine's writes (docs/schema-language.md, "Field types
 * of records"): every resource whose record declares `x-file` on a property gets these hooks,
 * whatever its area. Inside the write's transaction:
 *
 * - before a create or update, each id of each file field must name a file uploaded for that
 *   resource and field, of a type and size the field accepts now, that is either the writer's
 *   own upload on no record yet (and not expired) or already on this very record — so nobody
 *   can take another person's upload, or a file of a record they cannot write, onto a record
 *   of theirs to read it;
 * - the write attaches the new ones (an operation-log row `files.attach` each) and, on an
 *   update, marks the ones taken off the record removed (`files.detach`); a deleted record's
 *   files are marked removed. The sweeper (files.ts) deletes their bytes afterwards.
 */
import type { FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import { auditMany, type AuditEntry } from '../audit/log.ts';
import { fieldsOfType, type CreatedContext, type CreateContext, type DeleteContext, type HookContext, type ResourceFieldType, type UpdateContext } from '../resources/extensions.ts';
import { invalidInput } from '../resources/validation.ts';
import type { FileFieldSpec } from '../../runtime/schema/resource/types.ts';
import './messages.ts';

/** An upload on no record is its uploader's for this long, then removed. */
export const PENDING_HOURS = 24;

interface FileRow {
  id: number;
  name: string;
  mime: string;
  size: number;
  resource: string;
  field: string;
  record_id: number | null;
  uploaded_by: number | null;
  fresh: boolean;
}

const specOf = (ctx: HookContext, field: string): FileFieldSpec => (ctx.doc.record.properties[field] as { 'x-file': FileFieldSpec })['x-file'];
const titleOf = (ctx: HookContext, field: string): string => ctx.doc.record.properties[field]?.['x-title']?.[ctx.lang] ?? field;

function idsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}

/** The fields of the write that carry files, with the ids each now holds. */
function written(ctx: HookContext, data: Record<string, unknown>, partial: boolean): { field: string; ids: number[] }[] {
  return fieldsOfType(ctx.doc, 'x-file')
    .filter((field) => !(partial && !(field in data)))
    .map((field) => ({ field, ids: idsOf(data[field]) }));
}

async function check(ctx: HookContext, data: Record<string, unknown>, recordId: number | null, partial: boolean): Promise<void> {
  const errors: FieldError[] = [];
  for (const { field, ids } of written(ctx, data, partial)) {
    const title = titleOf(ctx, field);
    if (new Set(ids).size !== ids.length) {
      errors.push({ field, message: t(ctx.lang, 'files.duplicate', { field: title }) });
      continue;
    }
    if (!ids.length) continue;
    const spec = specOf(ctx, field);
    const { rows } = await ctx.tx.query<FileRow>(
      `SELECT id, name, mime, size, resource, field, record_id, uploaded_by,
              (uploaded_at > now() - make_interval(hours => $2)) AS fresh
         FROM files WHERE id = ANY($1::int[]) AND removed_at IS NULL FOR UPDATE`,
      [ids, PENDING_HOURS],
    );
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    for (const id of ids) {
      const row = byId.get(id);
      const mine = row && row.record_id === null && row.uploaded_by === ctx.user.id && row.fresh;
      const here = row && recordId !== null && row.record_id !== null && Number(row.record_id) === recordId;
      if (!row || !(mine || here) || row.resource !== ctx.doc.name) {
        // The same words whether the file is missing, someone else's or another record's.
        errors.push({ field, message: t(ctx.lang, 'files.unknownId', { field: title, id }) });
        break;
      }
      if (row.field !== field || !(spec.accept as string[]).includes(row.mime) || Number(row.size) > spec.maxBytes) {
        errors.push({ field, message: t(ctx.lang, 'files.fieldMismatch', { field: title, id }) });
        break;
      }
    }
  }
  if (errors.length) throw invalidInput(errors, ctx.lang);
}

/** Attaches the field's new files to the record and marks the ones it no longer holds removed; the log rows of both. */
async function attach(ctx: HookContext, data: Record<string, unknown>, recordId: number, partial: boolean): Promise<void> {
  const entries: AuditEntry[] = [];
  for (const { field, ids } of written(ctx, data, partial)) {
    const attached = await ctx.tx.query<{ id: number; name: string; mime: string; size: number }>(
      `UPDATE files SET record_id = $2, attached_at = now()
        WHERE id = ANY($1::int[]) AND record_id IS NULL AND removed_at IS NULL
        RETURNING id, name, mime, size`,
      [ids, recordId],
    );
    const detached = await ctx.tx.query<{ id: number; name: string }>(
      `UPDATE files SET removed_at = now()
        WHERE resource = $1 AND record_id = $2 AND field = $3 AND removed_at IS NULL AND NOT (id = ANY($4::int[]))
        RETURNING id, name`,
      [ctx.doc.name, recordId, field, ids],
    );
    for (const f of attached.rows)
      entries.push({ action: 'files.attach', resource: ctx.doc.name, recordId, changes: { field, file: { id: Number(f.id), name: f.name, type: f.mime, size: Number(f.size) } } });
    for (const f of detached.rows) entries.push({ action: 'files.detach', resource: ctx.doc.name, recordId, changes: { field, file: { id: Number(f.id), name: f.name } } });
  }
  await auditMany(ctx.tx, ctx.req, entries);
}

export const fileFieldType: ResourceFieldType = {
  keyword: 'x-file',
  hooks: {
    beforeCreate: async (ctx: CreateContext) => check(ctx, ctx.data, null, false),
    afterCreate: async (ctx: CreatedContext) => attach(ctx, ctx.data, ctx.id, false),
    beforeUpdate: async (ctx: UpdateContext) => {
      const partial = !!ctx.doc.partialUpdate;
      await check(ctx, ctx.data, ctx.id, partial);
      await attach(ctx, ctx.data, ctx.id, partial);
    },
    afterDelete: async (ctx: DeleteContext) => {
      await ctx.tx.query(`UPDATE files SET removed_at = now() WHERE resource = $1 AND record_id = ANY($2::int[]) AND removed_at IS NULL`, [ctx.doc.name, ctx.ids]);
    },
  },
};
