import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { JSONSchema } from 'json-schema-to-ts';
import type { SessionUser } from '../auth/session-user.ts';
import { requireCan } from '../http/guard.ts';
import { ok } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import {
  accessKeys,
  readKeys,
  filterParamNames,
  MAX_ID,
  MAX_IN_VALUES,
  MAX_PAGE_SIZE,
  resourceMetaSchema,
  rowJsonSchema,
  scalarTypeOf,
  writeJsonSchema,
  type FieldSchema,
  type ResourceDocument,
  type WriteAction,
} from '../../runtime/schema/resource.ts';
import { operationEndpoint, servesOperation, transitionLegacyEndpoint, type EngineOperation, type ResourceOperation } from '../../runtime/protocol/operations.ts';
import { hasTransitions, transitionRouteBodySchema, withOwnedFields, withTransitionHint } from '../../runtime/schema/transitions.ts';
import { envelopeSchema, errorReplySchema, pageParamsSchema, pageSchema } from './page.ts';
import { ResourceStore, type Body } from './store.ts';
import { refuseValidation, resourceValidatorCompiler } from './validation.ts';
import { authorityDoc, type Grant } from './openapi.ts';
import { registerImportRoute } from './import-route.ts';

const SORT_PATTERN = resourceMetaSchema.definitions.sortSpec.pattern;

export const idParamsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: MAX_ID, description: 'Record id.' } },
} as const;

export const batchBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ids'],
  properties: {
    ids: { type: 'array', items: { type: 'integer', minimum: 1, maximum: MAX_ID }, minItems: 1, maxItems: MAX_PAGE_SIZE, uniqueItems: true },
  },
} as const;

/** The value of one filter parameter, typed like the property it filters. */
function filterValueSchema(field: FieldSchema): Record<string, unknown> {
  const type = scalarTypeOf(field);
  if (type === 'string') {
    return { type: 'string', maxLength: field.maxLength, ...(field.enum ? { enum: field.enum } : {}), ...(field.format ? { format: field.format } : {}) };
  }
  if (type === 'number') return { type: field.type, ...(field.enum ? { enum: field.enum } : {}) };
  return { type: 'boolean' };
}

/**
 * The query of a page is built from the document at run time, so its type is the general one:
 * an object of named values (each checked by this schema before any handler sees it).
 */
export type PageQuerySchema = { readonly type: 'object'; readonly additionalProperties: false; readonly properties: Record<string, JSONSchema> };

export function pageQuerySchema(doc: ResourceDocument): PageQuerySchema {
  const properties: Record<string, JSONSchema> = {
    ...pageParamsSchema,
    sort: {
      type: 'string',
      maxLength: 200,
      pattern: SORT_PATTERN,
      description: `Comma-separated fields, "-" for descending. Sortable: ${[...doc.sortable, 'id', 'createdAt', 'updatedAt'].join(', ')}. Default: ${doc.defaultSort}.`,
    },
  };
  for (const s of doc.searchable) {
    if (s.filter === 'keyword') {
      const fields = (s.fields ?? []).map((f) => doc.record.properties[f]);
      const maxLength = Math.max(...fields.map((f) => f.maxLength ?? 200));
      // A keyword no field could contain is refused rather than searched: when every field
      // excludes the same characters (a pattern `^[^…]*$`, which every part of a value
      // matches too), so does the keyword.
      const patterns = new Set(fields.map((f) => f.pattern));
      const shared = patterns.size === 1 ? [...patterns][0] : undefined;
      const pattern = shared && /^\^\[\^[^\]]+\]\*\$$/.test(shared) ? shared : undefined;
      properties[s.field] = {
        type: 'string',
        maxLength,
        ...(pattern ? { pattern } : {}),
        description: `${(s.fields ?? []).join(' or ')} contains (case-insensitive)`,
      };
      continue;
    }
    const field = doc.record.properties[s.field];
    const value = filterValueSchema(field);
    const [first, second] = filterParamNames(s);
    if (s.filter === 'eq') properties[first] = { ...value, description: `${s.field} equals` };
    if (s.filter === 'like') properties[first] = { type: 'string', maxLength: field.maxLength, description: `${s.field} contains (case-insensitive)` };
    if (s.filter === 'in') properties[first] = { type: 'array', items: value, maxItems: MAX_IN_VALUES, description: `${s.field} is one of (repeat the parameter)` };
    if (s.filter === 'range') {
      properties[first] = { ...value, description: `${s.field} ≥` };
      properties[second] = { ...value, description: `${s.field} ≤` };
    }
  }
  return { type: 'object', additionalProperties: false, properties };
}

/** A search form sends empty fields; an empty parameter means "no filter". */
const dropEmptyQuery: preValidationHookHandler = async (req) => {
  const query = req.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  for (const [key, value] of Object.entries(query)) {
    if (value === '') delete query[key];
    else if (Array.isArray(value)) {
      const kept = value.filter((v) => v !== '');
      if (kept.length) query[key] = kept;
      else delete query[key];
    }
  }
};

/** The grants each guard below accepts, for the OpenAPI document. */
export function readGrants(doc: ResourceDocument): Grant[] {
  const aliases = new Set(doc.authorityAliases ?? []);
  return readKeys(doc).map((menu) => ({ menu, kind: menu === doc.authority ? 'authority' : aliases.has(menu) ? 'alias' : 'read-only' }));
}

export function writeGrants(doc: ResourceDocument, action: WriteAction): Grant[] {
  return accessKeys(doc, action).map((k) => ({ ...k, kind: k.menu === doc.authority ? 'authority' : 'alias' }));
}

function requireRead(req: FastifyRequest, doc: ResourceDocument): SessionUser {
  return requireCan(req, doc, 'read');
}

function requireWrite(req: FastifyRequest, doc: ResourceDocument, action: WriteAction): SessionUser {
  return requireCan(req, doc, action);
}

/** Authority first (40301), then the attached validation error (40001): no schema leaks to a caller without access. */
function checked(req: FastifyRequest) {
  if (req.validationError) throw refuseValidation(req.validationError, req.lang);
}

/**
 * The endpoints of one resource document, under the /api prefix: the plain operations it
 * serves (all six unless its `operations` lists fewer; one left out is a route that does
 * not exist), and its transitions.
 */
export function registerResourceRoutes(app: FastifyInstance, doc: ResourceDocument, store: ResourceStore): void {
  // Paths from the protocol's operation table, under the /api prefix the plugin is registered with.
  const at = (op: EngineOperation) => operationEndpoint(doc, op).path.replace(/^\/api/, '');
  const served = (op: ResourceOperation) => servesOperation(doc, op);
  const row = withReplyFields(withTransitionHint(doc, rowJsonSchema(doc)), store.replyFields());
  const tags = [doc.name];
  const title = doc.title.en;
  const errors = { 400: errorReplySchema, 401: errorReplySchema, 403: errorReplySchema, 404: errorReplySchema };
  const common = { validatorCompiler: resourceValidatorCompiler, attachValidation: true, preValidation: dropEmptyQuery };
  const read = authorityDoc(readGrants(doc));
  const write = (action: WriteAction) => authorityDoc(writeGrants(doc, action));
  const { text: readText, ...readX } = read;
  const create = write('create');
  const update = write('update');
  const remove = write('delete');
  const deleted = envelopeSchema({ type: 'object', properties: { deleted: { type: 'integer' } } });

  if (served('page')) {
    app.get(
      at('page'),
      {
        ...common,
        schema: {
          tags,
          summary: `${title}: page query`,
          description: `${readText}. Scope: ${doc.scope}.`,
          ...readX,
          querystring: pageQuerySchema(doc),
          response: { 200: envelopeSchema(pageSchema(row)), ...errors },
        },
      },
      async (req) => {
        const user = requireRead(req, doc);
        checked(req);
        return ok(await store.page(req.server.db, user, req.query as Record<string, unknown>), t(req.lang, 'common.ok'));
      },
    );
  }

  if (served('read')) {
    app.get(
      at('read'),
      { ...common, schema: { tags, summary: `${title}: one record`, description: `${readText}.`, ...readX, params: idParamsSchema, response: { 200: envelopeSchema(row), ...errors } } },
      async (req) => {
        const user = requireRead(req, doc);
        checked(req);
        return ok(await store.get(req.server.db, user, (req.params as { id: number }).id), t(req.lang, 'common.ok'));
      },
    );
  }

  if (served('create')) {
    app.post(
      at('create'),
      {
        ...common,
        schema: {
          tags,
          summary: `${title}: create`,
          description: `${create.text}. Unknown properties are refused.`,
          'x-authorities': create['x-authorities'],
          body: withOwnedFields(doc, writeJsonSchema(doc, 'create')),
          response: { 200: envelopeSchema(row), ...errors },
        },
      },
      async (req) => {
        const user = requireWrite(req, doc, 'create');
        checked(req);
        return ok(await store.create(req.server.db, req, user, req.body as Body), t(req.lang, 'common.ok'));
      },
    );
    registerImportRoute(app, doc, store, writeGrants(doc, 'create'));
  }

  if (served('update')) {
    app.put(
      at('update'),
      {
        ...common,
        schema: {
          tags,
          summary: `${title}: update`,
          description: `${update.text}. Replaces the record; \`version\` must be the one read, else 40001.`,
          'x-authorities': update['x-authorities'],
          params: idParamsSchema,
          body: withOwnedFields(doc, writeJsonSchema(doc, 'update')),
          response: { 200: envelopeSchema(row), ...errors },
        },
      },
      async (req) => {
        const user = requireWrite(req, doc, 'update');
        checked(req);
        const { id } = req.params as { id: number };
        return ok(await store.update(req.server.db, req, user, id, req.body as Body), t(req.lang, 'common.ok'));
      },
    );
  }

  if (served('batchDelete')) {
    app.delete(
      at('batchDelete'),
      {
        ...common,
        schema: {
          tags,
          summary: `${title}: delete several`,
          description: `${remove.text}. All or nothing: one id outside your scope fails the batch with 40401.`,
          'x-authorities': remove['x-authorities'],
          body: batchBodySchema,
          response: { 200: deleted, ...errors },
        },
      },
      async (req) => {
        const user = requireWrite(req, doc, 'delete');
        checked(req);
        return ok(await store.remove(req.server.db, req, user, (req.body as { ids: number[] }).ids), t(req.lang, 'common.ok'));
      },
    );
  }

  if (served('delete')) {
    app.delete(
      at('delete'),
      {
        ...common,
        schema: {
          tags,
          summary: `${title}: delete`,
          description: `${remove.text}.`,
          'x-authorities': remove['x-authorities'],
          params: idParamsSchema,
          response: { 200: deleted, ...errors },
        },
      },
      async (req) => {
        const user = requireWrite(req, doc, 'delete');
        checked(req);
        return ok(await store.remove(req.server.db, req, user, [(req.params as { id: number }).id]), t(req.lang, 'common.ok'));
      },
    );
  }

  if (!hasTransitions(doc)) return;
  // One route per transition (the operation's `:name` filled in): each is documented
  // with its own grants, and an undeclared name is a route that does not exist.
  for (const [name, tr] of Object.entries(doc.transitions)) {
    const grant = authorityDoc(transitionGrants(doc, tr.element));
    const reason = tr.reason ? ` Stores \`reason\` in \`${tr.reason.field}\`${tr.reason.required ? ' (required, else 40001 on `reason`)' : ''}.` : '';
    const moves = `Moves \`${doc.states.field}\` from ${tr.from.map((s) => JSON.stringify(s)).join(' or ')} to ${JSON.stringify(tr.to)}; another state answers 40001 naming it.`;
    const route = (method: 'POST' | 'PUT', url: string, legacy: boolean) =>
      app.route({
        method,
        url,
        ...common,
        schema: {
          tags,
          summary: `${title}: ${tr.title.en} (transition ${name}${legacy ? ', legacy path' : ''})`,
          description: `${grant.text}. ${moves} ${legacy ? '`version`, when sent, must be the one read, else 40001.' : '`version` must be the one read, else 40001.'}${reason}`,
          'x-authorities': grant['x-authorities'],
          params: idParamsSchema,
          body: transitionRouteBodySchema(doc, tr, MAX_ID, legacy),
          response: { 200: envelopeSchema(row), ...errors },
        },
        handler: async (req) => {
          const user = requireCan(req, doc, tr.element);
          checked(req);
          return ok(await store.transition(req.server.db, req, user, (req.params as { id: number }).id, name, (req.body ?? {}) as Body), t(req.lang, 'common.ok'));
        },
      });
    route('POST', at('transition').replace(':name', name), false);
    if (tr.path) route(tr.path.method, transitionLegacyEndpoint(doc, tr.path).path.replace(/^\/api/, ''), true);
  }
}

function transitionGrants(doc: ResourceDocument, element: string): Grant[] {
  return accessKeys(doc, element).map((k) => ({ ...k, kind: k.menu === doc.authority ? 'authority' : 'alias' }));
}

/** The reply row schema with the fields the resource's extensions add (ResourceHooks.replyFields). */
function withReplyFields(row: Record<string, unknown>, fields: Record<string, Record<string, unknown>>): Record<string, unknown> {
  if (!Object.keys(fields).length) return row;
  return { ...row, properties: { ...(row.properties as Record<string, unknown>), ...fields } };
}
