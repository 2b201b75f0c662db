import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/session-user.ts';
import type { Queryable } from '../db/database.ts';
import type { Lang } from '../i18n/lang.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import type { ReferenceTarget } from './references.ts';

/**
 * The resource engine's extension points for code (docs/resources.md, "Extensions"):
 * a business module hands the engine a list of `{resource, hooks}`; every hook runs
 * inside the write's transaction after the engine's authority and scope checks, so a
 * hook that throws (an ApiError for a clear refusal) rolls the whole write back.
 * Code outside the engine never needs to know a resource's URLs.
 */
export interface HookContext {
  tx: Queryable;
  req: FastifyRequest;
  user: SessionUser;
  lang: Lang;
  doc: ResourceDocument;
}

export interface CreateContext extends HookContext {
  /** The record about to be stored; a before-hook may change it (after validation). */
  data: Record<string, unknown>;
  /** The farm the record will belong to (the engine's owner rule: the body's farmId, else the caller's organisation); null for platform records. */
  farmId: number | null;
}

export interface CreatedContext extends CreateContext {
  id: number;
}

export interface UpdateContext extends HookContext {
  id: number;
  /** The record about to be stored; a before-hook may change it. */
  data: Record<string, unknown>;
  /** The record as stored before this write. */
  current: Record<string, unknown>;
  /** The farm the stored record belongs to (null for platform records). */
  farmId: number | null;
}

export interface DeleteContext extends HookContext {
  ids: number[];
  /** The records about to be deleted (or just deleted), by id. */
  current: Map<number, Record<string, unknown>>;
  /** The farm each of them belongs to, by id (null for platform records). */
  farmIds: Map<number, number | null>;
}

export interface TransitionContext extends HookContext {
  id: number;
  transition: string;
  from: string | number;
  to: string | number;
  /** The record after the transition; a before-hook may change it. */
  data: Record<string, unknown>;
  /** The record as stored before the transition. */
  current: Record<string, unknown>;
  /** The farm the record belongs to (null for platform records). */
  farmId: number | null;
  reason: string | null;
  /** The values sent for the transition's declared `input` (validated), by name. */
  input: Record<string, unknown>;
}

type Hook<C> = (ctx: C) => Promise<void>;

export interface ResourceHooks {
  beforeCreate?: Hook<CreateContext>;
  afterCreate?: Hook<CreatedContext>;
  beforeUpdate?: Hook<UpdateContext>;
  afterUpdate?: Hook<UpdateContext>;
  beforeDelete?: Hook<DeleteContext>;
  afterDelete?: Hook<DeleteContext>;
  beforeTransition?: Hook<TransitionContext>;
  afterTransition?: Hook<TransitionContext>;
  /**
   * Per-record hints for the console (`_can`, docs/schema-language.md "Action gating"):
   * the actions this caller would be refused on this record by a rule beyond element codes,
   * e.g. `{ add: false }`. Synchronous and without a query: it runs on every row of a page.
   */
  rowHints?: (ctx: { user: SessionUser; row: Readonly<Record<string, unknown>> }) => Record<string, boolean> | undefined;
  /**
   * Adds read-only figures to the reply rows (a count of related rows, a name from another
   * table): called once with every row of a page or a single reply, so one query serves
   * them all. The fields it adds are described in `replyFields`.
   */
  augmentRows?: (ctx: { db: Queryable; user: SessionUser; doc: ResourceDocument; rows: Record<string, unknown>[] }) => Promise<void>;
  /** JSON Schemas of the fields `augmentRows` adds, for the reply schema and the OpenAPI document. */
  replyFields?: Record<string, Record<string, unknown>>;
}

export interface ResourceExtension {
  /** The `name` of a resource document. */
  resource: string;
  hooks: ResourceHooks;
  /**
   * Properties of the document that hold ids of a business module's own records (a harvest
   * batch of the `harvests` table), which `references` cannot name: the engine checks them
   * with the same rule as the document's references (references.ts).
   */
  references?: Record<string, ReferenceTarget>;
}

/**
 * A field type (docs/schema-language.md, "Field types of records"): hooks that run on every
 * resource whose record declares the keyword on one of its top-level properties (`x-geometry`,
 * `x-file`), whatever area the resource belongs to, so no list of resources can forget one.
 * They run before the extensions that name the resource.
 */
export interface ResourceFieldType {
  keyword: string;
  hooks: ResourceHooks;
}

/** The documents declaring a field type's keyword, and the fields that carry it. */
export function fieldsOfType(doc: ResourceDocument, keyword: string): string[] {
  return Object.entries(doc.record.properties)
    .filter(([, schema]) => (schema as unknown as Record<string, unknown>)[keyword] !== undefined)
    .map(([name]) => name);
}

type HookName = Exclude<keyof ResourceHooks, 'rowHints' | 'augmentRows' | 'replyFields'>;
type ContextOf<K extends HookName> = Parameters<NonNullable<ResourceHooks[K]>>[0];

/** One resource's hooks, from every extension naming it, run in the order they were handed in. */
export class ResourceHookChain {
  constructor(
    private readonly list: readonly ResourceHooks[] = [],
    /** The module references of the resource (ResourceExtension.references), by field. */
    readonly references: Readonly<Record<string, ReferenceTarget>> = {},
  ) {}

  async run<K extends HookName>(name: K, ctx: ContextOf<K>): Promise<void> {
    for (const hooks of this.list) {
      const hook = hooks[name] as Hook<ContextOf<K>> | undefined;
      if (hook) await hook(ctx);
    }
  }

  /** Runs every extension's augmentRows over the reply rows, in order. */
  async augment(db: Queryable, user: SessionUser, doc: ResourceDocument, rows: Record<string, unknown>[]): Promise<void> {
    if (!rows.length) return;
    for (const hooks of this.list) if (hooks.augmentRows) await hooks.augmentRows({ db, user, doc, rows });
  }

  /** The fields every extension's augmentRows adds. */
  replyFields(): Record<string, Record<string, unknown>> {
    return Object.assign({}, ...this.list.map((h) => h.replyFields ?? {}));
  }

  /** Every extension's hints for one row, merged (a later `false` wins); undefined when none. */
  hints(user: SessionUser, row: Readonly<Record<string, unknown>>): Record<string, boolean> | undefined {
    let merged: Record<string, boolean> | undefined;
    for (const hooks of this.list) {
      const got = hooks.rowHints?.({ user, row });
      if (got) merged = { ...merged, ...got };
    }
    return merged;
  }
}

/**
 * The hooks of each resource. An extension naming no loaded resource is a programming
 * error that would silently disable a rule, so the server refuses to start.
 */
export function hookChains(
  docs: readonly ResourceDocument[],
  extensions: readonly ResourceExtension[],
  fieldTypes: readonly ResourceFieldType[] = [],
): Map<string, ResourceHookChain> {
  const names = new Set(docs.map((d) => d.name));
  const unknown = extensions.filter((e) => !names.has(e.resource)).map((e) => `"${e.resource}"`);
  if (unknown.length)
    throw new Error(`resource extension${unknown.length > 1 ? 's name' : ' names'} ${unknown.join(', ')}, which is no resource document; known: ${[...names].sort().join(', ')}`);
  const problems: string[] = [];
  for (const e of extensions) {
    const doc = docs.find((d) => d.name === e.resource)!;
    for (const field of Object.keys(e.references ?? {})) {
      if (doc.record.properties[field]?.type !== 'integer') problems.push(`${e.resource}.${field} (a module reference) is not an integer property`);
      if (doc.references?.[field]) problems.push(`${e.resource}.${field} is declared a reference by its document and by a module`);
    }
  }
  if (problems.length) throw new Error(problems.join('; '));
  return new Map(
    docs.map((d) => {
      const mine = extensions.filter((e) => e.resource === d.name);
      const typed = fieldTypes.filter((f) => fieldsOfType(d, f.keyword).length > 0).map((f) => f.hooks);
      return [d.name, new ResourceHookChain([...typed, ...mine.map((e) => e.hooks)], Object.assign({}, ...mine.map((e) => e.references ?? {})))];
    }),
  );
}
