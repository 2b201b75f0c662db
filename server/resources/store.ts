import { Params } from '../db/params.ts';
import type { FastifyRequest } from 'fastify';
import type { Database, Queryable } from '../db/database.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { readsManyFarms, regionCenterOf, type ScopeMode } from '../auth/region-scope.ts';
import { audit } from '../audit/log.ts';
import { ApiError, business, forbidden, notFound, type FieldError } from '../http/envelope.ts';
import type { Lang } from '../i18n/lang.ts';
import { t } from '../i18n/catalog.ts';
import { isSelfOwned, writeJsonSchema, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { diffRecords } from './diff.ts';
import { documentTarget, refuseUnreferable, type RecordOwner, type ReferenceCheck, type ReferenceTarget } from './references.ts';
import { ResourceHookChain } from './extensions.ts';
import { can } from '../../runtime/access/can.ts';
import { hasTransitions, TRANSITIONS_FIELD, transitionsFrom, withOwnedFields } from '../../runtime/schema/transitions.ts';

/** The per-record hints field the console's gating reads (runtime/screens/gating.ts, CAN_FIELD). */
const CAN_HINTS = '_can';
import { refuseFromState, settleOwnedFields, transitionReason } from './state-rules.ts';
import { msg } from './messages.ts';
import { assertCrossFieldRules, compileBodyValidator, fieldErrors } from './validation.ts';
import type { ImportMode } from '../../runtime/schema/resource-import.ts';
import { pageOf, type Page } from './page.ts';
import { pageQuery, pageRowsSql } from './page-query.ts';
import { pageTotal } from './page-count.ts';
import { auditNames, dataExpr, fieldExpr, ident, ownerExprs, rowFrom, rowsOf, rowSelect, rowView, scopeCondition, tableOf, type RecordRow } from './sql.ts';
import { deleteRecords, insertRecord, settleFixedFields, updateRecord } from './writes.ts';

export type RecordView = Record<string, unknown>;
export type Body = Record<string, unknown>;

/** One resource's records: reads and writes, each within the caller's scope. */
export class ResourceStore {
  private readonly select: string;
  /** Properties of other resources (or this one) that hold ids of this resource's records. */
  private readonly incoming: { doc: ResourceDocument; field: string }[];

  constructor(
    readonly doc: ResourceDocument,
    private readonly docs: Map<string, ResourceDocument>,
    private readonly hooks: ResourceHookChain = new ResourceHookChain(),
  ) {
    this.select = rowSelect(doc, docs);
    this.incoming = [...docs.values()].flatMap((d) =>
      Object.entries(d.references ?? {})
        .filter(([, ref]) => ref.resource === doc.name)
        .map(([field]) => ({ doc: d, field })),
    );
  }

  /** JSON Schemas of the fields the extensions add to reply rows (ResourceHooks.replyFields). */
  replyFields(): Record<string, Record<string, unknown>> {
    return this.hooks.replyFields();
  }

  async page(db: Queryable, user: SessionUser, query: Record<string, unknown>): Promise<Page<RecordView>> {
    const q = pageQuery(this.doc, user, query);
    const { sql, params } = pageRowsSql(q, this.select);
    // Rows first: a page that is not full gives the total without a count (page-count.ts).
    const rows = (await db.query<RecordRow>(sql, params)).rows;
    const { total, exact } = await pageTotal(db, q, rows.length);
    const page = pageOf(await this.views(db, rows, user), total, q.pageIndex, q.pageSize, exact);
    return this.doc.scope === 'farm' && readsManyFarms(user) ? { ...page, spansFarms: true } : page;
  }

  async get(db: Queryable, user: SessionUser, id: number): Promise<RecordView> {
    const row = await this.fetch(db, user, id, '', 'read');
    if (!row) throw notFound();
    return this.reply(db, row, user);
  }

  /**
   * The record in the caller's scope whose string property `field` equals `value` whatever
   * its case (how codes are kept unique: admin/resource-extensions.ts), or null. For
   * modules that name a record by its code rather than its id (a dictionary's items).
   */
  async findByText(db: Queryable, user: SessionUser, field: string, value: string): Promise<RecordView | null> {
    const p = new Params();
    const { rows } = await db.query<RecordRow>(
      `SELECT ${this.select} FROM ${rowFrom(this.doc)}
        WHERE ${rowsOf(this.doc)} AND lower(${fieldExpr(this.doc, field)}) = lower(${p.add(value)}) AND ${scopeCondition(this.doc, user, p)}
        ORDER BY r.id LIMIT 1`,
      p.values,
    );
    return rows[0] ? this.view(rows[0], user) : null;
  }

  async create(db: Database, req: FastifyRequest, user: SessionUser, body: Body): Promise<RecordView> {
    const data = this.recordData(body);
    settleOwnedFields(this.doc, data, null, req.lang);
    settleFixedFields(this.doc, data);
    assertCrossFieldRules(this.doc, data, req.lang);
    return db.transaction(async (tx) => {
      const owner = await this.owner(tx, user, body);
      const base = { tx, req, user, lang: req.lang, doc: this.doc };
      await this.referencesAround(tx, data, owner, req.lang, () => this.hooks.run('beforeCreate', { ...base, data, farmId: owner.farmId }));
      const id = await insertRecord(tx, this.doc, owner, data, user.id);
      const names = auditNames(this.doc);
      await audit(tx, req, {
        action: `${names.action}.create`,
        resource: names.resource,
        recordId: id,
        changes: { farmId: isSelfOwned(this.doc) ? id : owner.farmId, blocId: owner.blocId, version: { from: null, to: 1 }, fields: diffRecords(null, data) },
      });
      await this.hooks.run('afterCreate', { ...base, data, id, farmId: isSelfOwned(this.doc) ? id : owner.farmId });
      return this.reply(tx, (await this.fetch(tx, user, id))!, user);
    });
  }

  async update(db: Database, req: FastifyRequest, user: SessionUser, id: number, body: Body): Promise<RecordView> {
    // An update replaces the whole record (PUT), so the body is the record the rules judge;
    // a partial update (docs/resources.md, "partialUpdate") is the stored record with the body over it.
    const partial = this.doc.partialUpdate === true;
    const sent = this.recordData(body);
    if (!partial) assertCrossFieldRules(this.doc, sent, req.lang);
    const sentVersion = body.version as number | undefined;
    return db.transaction(async (tx) => {
      // The row lock makes concurrent writers of one record take turns; each then sees
      // the version its predecessor committed, so no update is ever silently lost.
      const current = await this.fetch(tx, user, id, 'FOR UPDATE OF r');
      if (!current) throw notFound();
      if (sentVersion !== undefined && current.version !== sentVersion) throw stale();
      const version = current.version;
      const data = partial ? { ...current.data, ...sent } : sent;
      settleOwnedFields(this.doc, data, current.data, req.lang);
      settleFixedFields(this.doc, data);
      if (partial) assertCrossFieldRules(this.doc, data, req.lang);
      const ctx = { tx, req, user, lang: req.lang, doc: this.doc, id, data, current: current.data, farmId: farmIdOf(current.farm_id) };
      await this.referencesAround(tx, data, { farmId: current.farm_id, blocId: current.bloc_id }, req.lang, () => this.hooks.run('beforeUpdate', ctx));
      if (!(await updateRecord(tx, this.doc, id, version, data, user.id, current.data))) throw stale();
      const names = auditNames(this.doc);
      await audit(tx, req, {
        action: `${names.action}.update`,
        resource: names.resource,
        recordId: id,
        changes: { farmId: current.farm_id, version: { from: version, to: version + 1 }, fields: diffRecords(current.data, data) },
      });
      await this.hooks.run('afterUpdate', ctx);
      return this.reply(tx, (await this.fetch(tx, user, id))!, user);
    });
  }

  /**
   * Moves a record along one of its document's transitions: the state must be among the
   * transition's sources and the version the one read; the state (and the reason, when
   * declared) change, the version rises and the operation log names the transition.
   */
  async transition(db: Database, req: FastifyRequest, user: SessionUser, id: number, name: string, body: Body): Promise<RecordView> {
    const doc = this.doc;
    const tr = doc.transitions?.[name];
    if (!hasTransitions(doc) || !tr) throw notFound();
    const field = doc.states.field;
    const reason = transitionReason(doc, tr, body.reason, req.lang);
    // Left out only at a transition's legacy path: the row lock below still makes racing
    // callers take turns, and the second one sees the state the first one left.
    const sentVersion = body.version as number | undefined;
    return db.transaction(async (tx) => {
      const current = await this.fetch(tx, user, id, 'FOR UPDATE OF r');
      if (!current) throw notFound();
      if (sentVersion !== undefined && current.version !== sentVersion) throw stale();
      const version = current.version;
      const from = current.data[field] as string | number;
      refuseFromState(doc, tr, from, req.lang);
      const data: Record<string, unknown> = { ...current.data, [field]: tr.to };
      if (tr.reason) {
        if (reason === null) delete data[tr.reason.field];
        else data[tr.reason.field] = reason;
      }
      const input = Object.fromEntries(Object.keys(tr.input ?? {}).flatMap((k) => (body[k] !== undefined ? [[k, body[k]]] : [])));
      const ctx = { tx, req, user, lang: req.lang, doc, id, transition: name, from, to: tr.to, data, current: current.data, farmId: farmIdOf(current.farm_id), reason, input };
      await this.hooks.run('beforeTransition', ctx);
      if (!(await updateRecord(tx, doc, id, version, data, user.id, current.data))) throw stale();
      const names = auditNames(doc);
      await audit(tx, req, {
        action: `${names.action}.${name}`,
        resource: names.resource,
        recordId: id,
        changes: { farmId: current.farm_id, version: { from: version, to: version + 1 }, fields: diffRecords(current.data, data) },
      });
      await this.hooks.run('afterTransition', ctx);
      return this.reply(tx, (await this.fetch(tx, user, id))!, user);
    });
  }

  /**
   * Creates the rows of an imported file, each exactly as `create` would (validation, the
   * document's rules, the extensions' hooks, references, the caller's scope): a refused row
   * leaves no trace and the rows after it see those before it (a code repeated inside the
   * file is refused as one already taken). `preview` rolls everything back and answers what
   * each row would give; `all` keeps the rows only when every one is valid; `validOnly`
   * keeps the valid ones. One operation-log row for the whole import (docs/import.md).
   *
   * On PostgreSQL all of it is one transaction (other requests have connections of their
   * own). PGlite has one session, and a transaction holds it: there the writes run in
   * slices of about IMPORT_SLICE_MS, each a transaction of its own, and the other requests'
   * queries go in between (docs/import.md, "Imports on PGlite").
   */
  async importRows(db: Database, req: FastifyRequest, user: SessionUser, rows: ImportRowInput[], opts: ImportOptions): Promise<ImportOutcome> {
    const lang = req.lang;
    const validate = this.importValidator();
    const checked: ImportRowOutcome[] = [];
    const ids: number[] = [];
    const updatedIds: number[] = [];
    type Ready = { outcome: ImportRowOutcome; data: Record<string, unknown>; fields: string[] };
    type Owner = { farmId: number | null; blocId: number | null };

    // First what needs no writing: names, the create's schema, owned and fixed fields, cross-field rules.
    const prepare = async (q: Queryable, owner: Owner): Promise<Ready[]> => {
      const ready: Ready[] = [];
      const known = new Map<string, number[]>();
      for (const [i, input] of rows.entries()) {
        // On PGlite the checks of a large file let other requests in now and then.
        if (db.engine === 'pglite' && i % 250 === 249) await yieldToOthers();
        const outcome: ImportRowOutcome = { row: input.row, ok: false, errors: [] };
        checked.push(outcome);
        const body: Body = { ...input.body };
        outcome.errors.push(...(await this.resolveNames(q, input.names, body, owner, lang, known)));
        if (!validate(body)) outcome.errors.push(...fieldErrors(validate.errors ?? [], lang));
        if (outcome.errors.length) continue;
        try {
          const data = this.recordData(body);
          settleOwnedFields(this.doc, data, null, lang);
          settleFixedFields(this.doc, data);
          assertCrossFieldRules(this.doc, data, lang);
          ready.push({ outcome, data, fields: Object.keys(body) });
        } catch (e) {
          const errors = refusalErrors(e, lang);
          if (!errors) throw e;
          outcome.errors.push(...errors);
        }
      }
      return ready;
    };

    // Then the create's writes, row by row in file order (a hook sees the rows before).
    const createOne = async (tx: Queryable, owner: Owner, data: Record<string, unknown>): Promise<number> => {
      const base = { tx, req, user, lang, doc: this.doc };
      await this.referencesAround(tx, data, owner, lang, () => this.hooks.run('beforeCreate', { ...base, data, farmId: owner.farmId }));
      const id = await insertRecord(tx, this.doc, owner, data, user.id);
      await this.hooks.run('afterCreate', { ...base, data, id, farmId: isSelfOwned(this.doc) ? id : owner.farmId });
      return id;
    };
    // With `update`, a row whose key names a record of the owner's updates it: the file's
    // fields over the stored record, through the update's rules and hooks (docs/import.md).
    const key = opts.update ? this.doc.importKey : undefined;
    const existing = async (tx: Queryable, owner: Owner, data: Record<string, unknown>): Promise<number | null> => {
      if (!key || typeof data[key] !== 'string') return null;
      const p = new Params();
      const { rows: found } = await tx.query<{ id: number }>(
        `SELECT r.id FROM ${rowFrom(this.doc)} WHERE ${rowsOf(this.doc)} AND ${fieldExpr(this.doc, key)} = ${p.add(data[key])}
            AND ${scopeCondition(this.doc, user, p)} AND ${ownerExprs(this.doc).farm} IS NOT DISTINCT FROM ${p.add(owner.farmId)} ORDER BY r.id LIMIT 1`,
        p.values,
      );
      return found[0] ? Number(found[0].id) : null;
    };
    const updateOne = async (tx: Queryable, id: number, item: { data: Record<string, unknown>; fields: string[] }): Promise<number> => {
      const current = (await this.fetch(tx, user, id, 'FOR UPDATE OF r'))!;
      const data: Record<string, unknown> = { ...current.data };
      for (const f of item.fields) if (item.data[f] !== undefined) data[f] = item.data[f];
      settleOwnedFields(this.doc, data, current.data, lang);
      settleFixedFields(this.doc, data);
      assertCrossFieldRules(this.doc, data, lang);
      const ctx = { tx, req, user, lang, doc: this.doc, id, data, current: current.data, farmId: farmIdOf(current.farm_id) };
      await this.referencesAround(tx, data, { farmId: current.farm_id, blocId: current.bloc_id }, lang, () => this.hooks.run('beforeUpdate', ctx));
      if (!(await updateRecord(tx, this.doc, id, current.version, data, user.id, current.data))) throw stale();
      await this.hooks.run('afterUpdate', ctx);
      return id;
    };
    const writeOne = async (tx: Queryable, owner: Owner, item: Ready): Promise<number> => {
      const data = structuredClone(item.data);
      const id = await existing(tx, owner, data);
      item.outcome.updated = id !== null;
      return id === null ? createOne(tx, owner, data) : updateOne(tx, id, { data, fields: item.fields });
    };
    const succeeded = (outcome: ImportRowOutcome, id: number) => {
      outcome.ok = true;
      outcome.id = id;
      if (outcome.updated) updatedIds.push(id);
      else ids.push(id);
    };
    // A savepoint per chunk of rows: a refused row rolls its chunk back, which is then done
    // again with a savepoint per row (a hook may have written before refusing). Most rows
    // pay no savepoint of their own. True when a row of the chunk was refused.
    const writeChunk = async (tx: Queryable, owner: Owner, chunk: Ready[]): Promise<boolean> => {
      await tx.query('SAVEPOINT resource_import_chunk');
      const made: number[] = [];
      let refused = false;
      for (const item of chunk) {
        try {
          made.push(await writeOne(tx, owner, item));
        } catch (e) {
          if (!refusalErrors(e, lang)) throw e;
          refused = true;
          break;
        }
      }
      if (!refused) {
        await tx.query('RELEASE SAVEPOINT resource_import_chunk');
        chunk.forEach((item, i) => succeeded(item.outcome, made[i]));
        return false;
      }
      await tx.query('ROLLBACK TO SAVEPOINT resource_import_chunk');
      await tx.query('RELEASE SAVEPOINT resource_import_chunk');
      for (const item of chunk) {
        await tx.query('SAVEPOINT resource_import_row');
        try {
          const id = await writeOne(tx, owner, item);
          await tx.query('RELEASE SAVEPOINT resource_import_row');
          succeeded(item.outcome, id);
        } catch (e) {
          await tx.query('ROLLBACK TO SAVEPOINT resource_import_row');
          const errors = refusalErrors(e, lang);
          if (!errors) throw e;
          item.outcome.errors.push(...errors);
        }
      }
      return true;
    };
    const logImport = async (tx: Queryable, owner: Owner, skipped: number) => {
      if (!ids.length && !updatedIds.length) return;
      // The log lists the records in file order.
      ids.sort((a, b) => a - b);
      updatedIds.sort((a, b) => a - b);
      const names = auditNames(this.doc);
      await audit(tx, req, {
        action: `${names.action}.import`,
        resource: names.resource,
        recordId: null,
        changes: {
          farmId: owner.farmId, blocId: owner.blocId, mode: opts.mode, fileName: opts.fileName, count: ids.length, skipped, ids,
          ...(updatedIds.length ? { updated: updatedIds.length, updatedIds } : {}),
        },
      });
    };
    const ownerOf = (q: Queryable) => this.owner(q, user, opts.farmId !== undefined ? { farmId: opts.farmId } : {});

    let imported = 0;
    if (db.engine === 'pglite') imported = await this.importInSlices(db, opts, { prepare, writeChunk, logImport, ownerOf, checked, ids, updatedIds, lang });
    else {
      try {
        imported = await db.transaction(async (tx) => {
          const owner = await ownerOf(tx);
          const ready = await prepare(tx, owner);
          for (let at = 0; at < ready.length; at += IMPORT_CHUNK) await writeChunk(tx, owner, ready.slice(at, at + IMPORT_CHUNK));
          const invalid = checked.filter((r) => !r.ok);
          if (opts.mode === 'preview') throw new ImportRollback();
          if (opts.mode === 'all' && invalid.length) throw importRefusal(invalid, lang);
          await logImport(tx, owner, invalid.length);
          return ids.length + updatedIds.length;
        });
      } catch (e) {
        if (!(e instanceof ImportRollback)) throw e;
      }
    }
    // A preview's rows were created and rolled back: their ids mean nothing.
    if (opts.mode === 'preview') for (const r of checked) delete r.id;
    for (const r of checked) if (!r.ok) delete r.updated;
    const valid = checked.filter((r) => r.ok).length;
    const updated = checked.filter((r) => r.ok && r.updated).length;
    return { mode: opts.mode, total: checked.length, valid, invalid: checked.length - valid, imported: opts.mode === 'preview' ? 0 : imported, updated, rows: checked };
  }

  /**
   * An import on PGlite (docs/import.md, "Imports on PGlite"): the checks that need no
   * writing read outside any transaction; then the rows are written in slices, each one
   * transaction of about IMPORT_SLICE_MS, with the other requests' queries let in between.
   * `preview` rolls every slice back (a hook sees the rows of its own slice before a row,
   * not those of earlier slices). `validOnly` commits each slice. `all` first judges every
   * row as a preview does and refuses, with nothing written, when one is invalid; then
   * commits slice by slice, and a row refused only then (a code taken meanwhile, or one
   * repeated in the file further apart than a slice) rolls its slice back and ends the
   * import there: the slices before it stay, and the refusal says which rows were kept.
   * The log row is written after the last slice, in a transaction of its own.
   */
  private async importInSlices(
    db: Database,
    opts: ImportOptions,
    run: {
      prepare: (q: Queryable, owner: { farmId: number | null; blocId: number | null }) => Promise<{ outcome: ImportRowOutcome; data: Record<string, unknown>; fields: string[] }[]>;
      writeChunk: (tx: Queryable, owner: { farmId: number | null; blocId: number | null }, chunk: { outcome: ImportRowOutcome; data: Record<string, unknown>; fields: string[] }[]) => Promise<boolean>;
      logImport: (tx: Queryable, owner: { farmId: number | null; blocId: number | null }, skipped: number) => Promise<void>;
      ownerOf: (q: Queryable) => Promise<{ farmId: number | null; blocId: number | null }>;
      checked: ImportRowOutcome[];
      ids: number[];
      updatedIds: number[];
      lang: Lang;
    },
  ): Promise<number> {
    const { checked, ids, updatedIds } = run;
    const owner = await run.ownerOf(db);
    const ready = await run.prepare(db, owner);
    /** Every ready row through writeChunk, a slice per transaction; `keep` commits the slices. */
    const pass = async (keep: boolean, stopAtRefusal: boolean): Promise<{ stoppedAt: number | null }> => {
      let at = 0;
      let lastSliceMs = IMPORT_SLICE_MS;
      while (at < ready.length) {
        if (at > 0) await letOthersIn(db, lastSliceMs);
        const from = at;
        const sliceStarted = performance.now();
        try {
          await db.transaction(async (tx) => {
            const started = performance.now();
            do {
              const chunk = ready.slice(at, at + IMPORT_SLICE_CHUNK);
              const refused = await run.writeChunk(tx, owner, chunk);
              if (refused && stopAtRefusal) throw new ImportStop(at);
              at += chunk.length;
            } while (at < ready.length && performance.now() - started < IMPORT_SLICE_MS);
            if (!keep) throw new ImportRollback();
          });
        } catch (e) {
          if (e instanceof ImportStop) {
            // The slice is rolled back: its rows are not kept, whatever the outcomes said.
            for (const item of ready.slice(from)) {
              if (item.outcome.ok) {
                item.outcome.ok = false;
                const list = item.outcome.updated ? updatedIds : ids;
                list.splice(list.indexOf(item.outcome.id!), 1);
                delete item.outcome.id;
              }
            }
            return { stoppedAt: from };
          }
          if (!(e instanceof ImportRollback)) throw e;
        }
        lastSliceMs = performance.now() - sliceStarted;
      }
      return { stoppedAt: null };
    };
    if (opts.mode === 'preview') {
      await pass(false, false);
      return 0;
    }
    if (opts.mode === 'all') {
      await pass(false, false);
      const invalid = checked.filter((r) => !r.ok);
      if (invalid.length) throw importRefusal(invalid, run.lang);
      for (const r of checked) {
        r.ok = false;
        delete r.id;
        delete r.updated;
      }
      ids.length = 0;
      updatedIds.length = 0;
    }
    const { stoppedAt } = await pass(true, opts.mode === 'all');
    const skipped = checked.filter((r) => !r.ok).length;
    await db.transaction((tx) => run.logImport(tx, owner, skipped));
    if (stoppedAt !== null) {
      const refused = checked.filter((r) => r.errors.length);
      throw importStopped(refused, ids.length + updatedIds.length, run.lang);
    }
    return ids.length + updatedIds.length;
  }

  /** The create body's validator, compiled once. */
  private importValidator() {
    this.createValidator ??= compileBodyValidator(withOwnedFields(this.doc, writeJsonSchema(this.doc, 'create')));
    return this.createValidator;
  }

  private createValidator?: ReturnType<typeof compileBodyValidator>;

  /**
   * Reference fields written as the referenced record's display name (a supplier's name):
   * the one record of that name where the new record lives, else a refusal on the field.
   */
  private async resolveNames(
    tx: Queryable,
    names: Record<string, string>,
    body: Body,
    owner: { farmId: number | null; blocId: number | null },
    lang: Lang,
    known: Map<string, number[]>,
  ): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const [field, name] of Object.entries(names)) {
      const title = this.docs.get(this.doc.references![field].resource)!.title[lang];
      const cached = known.get(`${field}\u0000${name.toLowerCase()}`);
      if (cached) {
        if (cached.length === 1) body[field] = cached[0];
        else errors.push({ field, message: t(lang, cached.length ? msg['import.nameAmbiguous'] : msg['import.nameMissing'], { name, target: title }) });
        continue;
      }
      const target = this.docs.get(this.doc.references![field].resource)!;
      const p = new Params();
      const own = ownerExprs(target);
      const cond = target.scope === 'platform' ? 'TRUE' : target.scope === 'farm' ? `${own.farm} = ${p.add(owner.farmId)}` : `${own.bloc} = ${p.add(owner.blocId)}`;
      const { rows } = await tx.query<{ id: number }>(
        `SELECT r.id FROM ${tableOf(target)} r WHERE ${rowsOf(target)} AND lower(${fieldExpr(target, target.displayField)}) = lower(${p.add(name)}) AND ${cond} ORDER BY r.id LIMIT 2`,
        p.values,
      );
      known.set(`${field}\u0000${name.toLowerCase()}`, rows.map((r) => Number(r.id)));
      if (rows.length === 1) body[field] = Number(rows[0].id);
      else errors.push({ field, message: t(lang, rows.length ? msg['import.nameAmbiguous'] : msg['import.nameMissing'], { name, target: title }) });
    }
    return errors;
  }

  /** Reply rows with the figures the extensions add (ResourceHooks.augmentRows), one call for all. */
  private async views(db: Queryable, rows: RecordRow[], user: SessionUser): Promise<RecordView[]> {
    const views = rows.map((r) => this.view(r, user));
    await this.hooks.augment(db, user, this.doc, views);
    return views;
  }

  private async reply(db: Queryable, row: RecordRow, user: SessionUser): Promise<RecordView> {
    return (await this.views(db, [row], user))[0];
  }

  /** A reply row: the stored row, and the transitions its state allows the caller. */
  private view(row: RecordRow, user: SessionUser): RecordView {
    const view = rowView(row);
    if (hasTransitions(this.doc)) {
      const doc = this.doc;
      view[TRANSITIONS_FIELD] = transitionsFrom(doc, row.data[doc.states.field]).filter((n) => can(user, doc, doc.transitions[n].element));
    }
    const hints = this.hooks.hints(user, view);
    if (hints) view[CAN_HINTS] = { ...(view[CAN_HINTS] as Record<string, boolean> | undefined), ...hints };
    // A regional center reads its region's records and changes none of them (its writes stay
    // in its own organisation): no write is offered on another farm's row.
    if (this.doc.scope === 'farm' && regionCenterOf(user) != null && row.farm_id !== null && Number(row.farm_id) !== user.orgId) {
      if (hasTransitions(this.doc)) view[TRANSITIONS_FIELD] = [];
      const verbs = Object.entries(this.doc.elements ?? {})
        .filter(([kind]) => kind !== 'create')
        .map(([, code]) => String(code).slice(String(code).lastIndexOf(':') + 1));
      view[CAN_HINTS] = { ...(view[CAN_HINTS] as Record<string, boolean> | undefined), ...Object.fromEntries(verbs.map((v) => [v, false])) };
    }
    return view;
  }

  /** Deletes every one of `ids` or none: an id outside the caller's scope fails the whole batch. */
  async remove(db: Database, req: FastifyRequest, user: SessionUser, ids: number[]): Promise<{ deleted: number }> {
    return db.transaction(async (tx) => {
      const p = new Params();
      const idsParam = p.add(ids);
      const { rows } = await tx.query<{ id: number; version: number; farm_id: number | null; data: Record<string, unknown> }>(
        `SELECT r.id, r.version, ${ownerExprs(this.doc).farm} AS farm_id, ${dataExpr(this.doc)} AS data FROM ${tableOf(this.doc)} r
          WHERE ${rowsOf(this.doc)} AND r.id = ANY(${idsParam}::bigint[]) AND ${scopeCondition(this.doc, user, p)}
          ORDER BY r.id FOR UPDATE OF r`,
        p.values,
      );
      if (rows.length !== ids.length) throw notFound();
      const ctx = {
        tx,
        req,
        user,
        lang: req.lang,
        doc: this.doc,
        ids,
        current: new Map(rows.map((r) => [Number(r.id), r.data])),
        farmIds: new Map(rows.map((r) => [Number(r.id), farmIdOf(r.farm_id)])),
      };
      await this.hooks.run('beforeDelete', ctx);
      await this.checkNotReferenced(tx, ids, req.lang);
      await deleteRecords(tx, this.doc, ids);
      const names = auditNames(this.doc);
      for (const row of rows) {
        await audit(tx, req, {
          action: `${names.action}.delete`,
          resource: names.resource,
          recordId: Number(row.id),
          changes: { farmId: row.farm_id, version: { from: row.version, to: null }, fields: diffRecords(row.data, null) },
        });
      }
      await this.hooks.run('afterDelete', ctx);
      return { deleted: rows.length };
    });
  }

  /** The record in the caller's scope: the write scope unless a read asks for 'read' (auth/region-scope.ts). */
  private async fetch(db: Queryable, user: SessionUser, id: number, lock = '', mode: ScopeMode = 'write'): Promise<RecordRow | null> {
    const p = new Params();
    const { rows } = await db.query<RecordRow>(
      `SELECT ${this.select} FROM ${rowFrom(this.doc)}
        WHERE ${rowsOf(this.doc)} AND r.id = ${p.add(id)} AND ${scopeCondition(this.doc, user, p, 'r', mode)} ${lock}`,
      p.values,
    );
    return rows[0] ?? null;
  }

  /** The record's own properties of a validated body; the read-only meta fields fall away. */
  private recordData(body: Body): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    for (const key of Object.keys(this.doc.record.properties)) if (body[key] !== undefined) data[key] = body[key];
    return data;
  }

  /** Who owns a new record: see docs/resources.md, "Scope". */
  private async owner(tx: Queryable, user: SessionUser, body: Body): Promise<{ farmId: number | null; blocId: number | null }> {
    const scope = this.doc.scope;
    if (scope === 'platform') return { farmId: null, blocId: null };
    if (isSelfOwned(this.doc)) return this.newOrganisationOwner(tx, user, body);
    if (scope === 'farm') {
      const farmId = (body.farmId as number | undefined) ?? user.orgId ?? undefined;
      if (farmId === undefined) {
        if (user.platformAdmin || user.blocId != null) throw fieldRefusal('resource.farmRequired', 'farmId');
        throw business(msg['resource.noOwner']);
      }
      const p = new Params();
      const cond = user.platformAdmin ? 'TRUE' : user.orgId != null ? `o.id = ${p.add(user.orgId)}` : user.blocId != null ? `o.bloc_id = ${p.add(user.blocId)}` : 'FALSE';
      const { rows } = await tx.query<{ id: number; bloc_id: number | null }>(
        `SELECT o.id, o.bloc_id FROM organisations o WHERE o.id = ${p.add(farmId)} AND ${cond}`,
        p.values,
      );
      if (!rows[0]) throw fieldRefusal('resource.farmOutOfScope', 'farmId');
      return { farmId: rows[0].id, blocId: rows[0].bloc_id };
    }
    const blocId = (body.blocId as number | undefined) ?? user.blocId ?? undefined;
    if (blocId === undefined) {
      if (user.platformAdmin) throw fieldRefusal('resource.blocRequired', 'blocId');
      throw business(msg['resource.noOwner']);
    }
    const p = new Params();
    const cond = user.platformAdmin ? 'TRUE' : user.blocId != null ? `b.id = ${p.add(user.blocId)}` : 'FALSE';
    const { rows } = await tx.query<{ id: number }>(`SELECT b.id FROM blocs b WHERE b.id = ${p.add(blocId)} AND ${cond}`, p.values);
    if (!rows[0]) throw fieldRefusal('resource.blocOutOfScope', 'blocId');
    return { farmId: null, blocId: rows[0].id };
  }

  /**
   * A new row that is an organisation (isSelfOwned) is its own farm; it joins a group: a
   * provider's own, or for a platform administrator the one sent (or none). A member of an
   * organisation sees only that one, so a new organisation would be out of its scope: 40301.
   */
  private async newOrganisationOwner(tx: Queryable, user: SessionUser, body: Body): Promise<{ farmId: null; blocId: number | null }> {
    const sent = body.blocId as number | undefined;
    if (user.platformAdmin) {
      if (sent === undefined) return { farmId: null, blocId: null };
      const { rows } = await tx.query<{ id: number }>('SELECT b.id FROM blocs b WHERE b.id = $1', [sent]);
      if (!rows[0]) throw fieldRefusal('resource.blocOutOfScope', 'blocId');
      return { farmId: null, blocId: rows[0].id };
    }
    if (user.orgId != null || user.blocId == null) throw forbidden();
    if (sent !== undefined && sent !== user.blocId) throw fieldRefusal('resource.blocOutOfScope', 'blocId');
    return { farmId: null, blocId: user.blocId };
  }

  /**
   * Runs a before-hook between two reference checks: first what the caller sent, so that
   * no hook reads (and no refusal of a hook tells anything about) another tenant's record;
   * then what a hook changed.
   */
  private async referencesAround(tx: Queryable, data: Record<string, unknown>, owner: RecordOwner, lang: Lang, hook: () => Promise<void>) {
    const sent = await this.checkReferences(tx, data, owner, lang);
    await hook();
    await this.checkReferences(tx, data, owner, lang, sent);
  }

  /**
   * Every reference (the document's and the modules' declared ones) must name a record
   * that the new record's owner may name (references.ts: a platform record, or one of the
   * same farm or group); another tenant's record answers as a missing one. Fields whose
   * value `checked` already holds are skipped. Answers the values it checked.
   */
  private async checkReferences(tx: Queryable, data: Record<string, unknown>, owner: RecordOwner, lang: Lang, checked = new Map<string, unknown>()) {
    const targets: [string, ReferenceTarget][] = [
      ...Object.entries(this.doc.references ?? {}).map(([field, ref]) => [field, documentTarget(this.docs.get(ref.resource)!)] as [string, ReferenceTarget]),
      ...Object.entries(this.hooks.references),
    ];
    const checks: ReferenceCheck[] = [];
    const values = new Map<string, unknown>();
    for (const [field, target] of targets) {
      const value = data[field];
      values.set(field, value);
      if (value === undefined || value === null || (checked.has(field) && checked.get(field) === value)) continue;
      checks.push({ field, target, ids: [Number(value)] });
    }
    await refuseUnreferable(tx, owner, checks, lang);
    return values;
  }

  private async checkNotReferenced(tx: Queryable, ids: number[], lang: Lang) {
    for (const { doc, field } of this.incoming) {
      const self = doc.name === this.doc.name ? ' AND NOT (s.id = ANY($1::bigint[]))' : '';
      const { rows } = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM resource_records s
          WHERE s.resource = ${ident(doc.name)} AND ${fieldExpr(doc, field, 's')} = ANY($1::bigint[]::numeric[])${self}`,
        [ids],
      );
      if (rows[0].n > 0) throw business(msg['resource.stillReferenced'], { count: rows[0].n, source: doc.title[lang] });
    }
  }
}

/** A farm id as the driver gives it (bigint columns may arrive as strings). */
function farmIdOf(value: number | string | null): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function stale() {
  return business(msg['resource.stale'], {}, (lang: Lang) => [{ field: 'version', message: t(lang, msg['resource.stale']) }]);
}

function fieldRefusal(key: keyof typeof msg, field: string) {
  return business(msg[key], {}, (lang: Lang) => [{ field, message: t(lang, key) }]);
}


export interface ImportRowInput {
  /** The row's number in the spreadsheet. */
  row: number;
  body: Record<string, unknown>;
  /** Reference fields given by name. */
  names: Record<string, string>;
}

export interface ImportOptions {
  mode: ImportMode;
  fileName?: string;
  /** The farm the records go to (a provider or an administrator names one, as in a create). */
  farmId?: number;
  /** A row whose `importKey` names a record of that farm updates it instead of being refused. */
  update?: boolean;
}

export interface ImportRowOutcome {
  row: number;
  ok: boolean;
  /** The created or updated record (not in a preview). */
  id?: number;
  /** The row updated the record its key names (the file's fields over the stored record). */
  updated?: boolean;
  errors: FieldError[];
}

export interface ImportOutcome {
  mode: ImportMode;
  total: number;
  valid: number;
  invalid: number;
  imported: number;
  /** Of `imported`, the rows that updated a record (with `update`). */
  updated: number;
  rows: ImportRowOutcome[];
}

/** Rows written under one savepoint (store.importRows). */
const IMPORT_CHUNK = 100;
/** On PGlite: the time one transaction of an import may hold the database before letting others in. */
const IMPORT_SLICE_MS = 25;
/** On PGlite: the longest the import waits between two slices while others keep the database busy. */
const IMPORT_GAP_MAX_MS = 200;
/** On PGlite: rows under one savepoint inside a slice (a slice ends between chunks). */
const IMPORT_SLICE_CHUNK = 10;

/** Lets the queries of other requests, queued on PGlite's one session, run. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Between two slices of an import on PGlite: queries queue on the one session in order, so
 * a ping returns once those queued before it ran. When the first ping meets no queue nobody
 * waits, and the next slice starts. When others were waiting (a slow ping), they get at
 * least as long as the slice took: a page request is several queries with JavaScript in
 * between, and a ping that finds the queue empty for a moment does not mean they are done.
 * Never longer than IMPORT_GAP_MAX_MS.
 */
async function letOthersIn(db: Queryable, sliceMs: number): Promise<void> {
  const started = performance.now();
  let othersWaited = false;
  for (;;) {
    await yieldToOthers();
    const ping = performance.now();
    await db.query('SELECT 1');
    const now = performance.now();
    const queued = now - ping >= 2;
    othersWaited ||= queued;
    if (!othersWaited || now - started >= Math.min(IMPORT_GAP_MAX_MS, Math.max(sliceMs, IMPORT_SLICE_MS))) return;
    if (!queued) await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Ends an `all` import on PGlite at the slice (its first row's index) where a row was refused. */
class ImportStop extends Error {
  constructor(readonly at: number) {
    super('import stopped');
  }
}

/** Thrown to roll a preview back once every row was tried. */
class ImportRollback extends Error {}

/** A refusal's field errors in `lang` (a 40001 of validation, a rule or a hook); null for anything else. */
function refusalErrors(e: unknown, lang: Lang): FieldError[] | null {
  if (e instanceof ApiError) {
    if (e.status !== 40001) return null;
    const details = typeof e.details === 'function' ? e.details(lang) : e.details;
    return details?.length ? details : [{ field: '', message: t(lang, e.key, e.params) }];
  }
  // A unique index that a module's own check did not see (the last guard).
  const code = (e as { code?: unknown }).code;
  if (code === '23505') return [{ field: '', message: t(lang, 'common.duplicate') }];
  return null;
}

/** `all` on PGlite refused while writing: 40001 naming the rows, and how many were kept before. */
function importStopped(refused: ImportRowOutcome[], kept: number, lang: Lang) {
  const sep = lang === 'zh' ? '、' : ', ';
  const numbers = refused.slice(0, 20).map((r) => r.row).join(sep) + (refused.length > 20 ? `${sep}…` : '');
  return business(msg['import.stopped'], { rows: numbers, kept }, (l: Lang) =>
    refused.flatMap((r) => r.errors.map((e) => ({ field: `rows.${r.row}${e.field ? `.${e.field}` : ''}`, message: t(l, msg['import.rowError'], { row: r.row, message: e.message }) }))).slice(0, 500),
  );
}

/** `all` with invalid rows: 40001 naming them, every row's problems as `rows.<row>.<field>`. */
function importRefusal(invalid: ImportRowOutcome[], lang: Lang) {
  const sep = lang === 'zh' ? '、' : ', ';
  const numbers = invalid.slice(0, 20).map((r) => r.row).join(sep) + (invalid.length > 20 ? `${sep}…` : '');
  return business(msg['import.rowsInvalid'], { count: invalid.length, rows: numbers }, (l: Lang) =>
    invalid.flatMap((r) => r.errors.map((e) => ({ field: `rows.${r.row}${e.field ? `.${e.field}` : ''}`, message: t(l, msg['import.rowError'], { row: r.row, message: e.message }) }))).slice(0, 500),
  );
}
