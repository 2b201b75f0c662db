import type { FastifyInstance } from 'fastify';
import { ok, business, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { MAX_ID, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { importableFields, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_MODES, type ImportMode } from '../../runtime/schema/resource-import.ts';
import { operationEndpoint } from '../../runtime/protocol/operations.ts';
import { requireCan } from '../http/guard.ts';
import { ImportFileError, sheetRows } from './import-file.ts';
import { importSlotsOf } from './import-slots.ts';
import { loadConfig } from '../config.ts';
import { msg } from './messages.ts';
import { envelopeSchema, errorReplySchema } from './page.ts';
import type { ImportOutcome, ResourceStore } from './store.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from './validation.ts';
import type { Grant } from './openapi.ts';
import { authorityDoc } from './openapi.ts';

/** Base64 of the largest file, with room for a generous JSON around it; past the body limit Fastify answers 413. */
const MAX_CONTENT_CHARS = Math.ceil((IMPORT_MAX_BYTES * 1.25) / 3) * 4;
export const IMPORT_BODY_LIMIT = MAX_CONTENT_CHARS + 64 * 1024;

export const importBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['mode', 'content'],
  properties: {
    mode: { type: 'string', enum: [...IMPORT_MODES], description: 'preview: check every row, keep nothing; all: keep the rows only when every one is valid; validOnly: keep the valid rows.' },
    fileName: { type: 'string', maxLength: 255, description: 'The file name, kept in the operation log.' },
    content: { type: 'string', maxLength: MAX_CONTENT_CHARS, description: `The file (.xlsx, or .csv in UTF-8) in Base64, at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB and ${IMPORT_MAX_ROWS} rows.` },
    farmId: { type: 'integer', minimum: 1, maximum: MAX_ID, description: 'The farm the records go to, as in a create (a provider or an administrator names one).' },
    update: { type: 'boolean', description: 'A row whose key (the document’s importKey, e.g. the goods code) names a record of the farm updates it, through the update’s rules; without, such a row is refused as a create would be. Refused (40001 on update) for a document without importKey.' },
  },
} as const;

const errorSchema = { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } };
const replySchema = {
  type: 'object',
  properties: {
    mode: { type: 'string' },
    total: { type: 'integer' },
    valid: { type: 'integer' },
    invalid: { type: 'integer' },
    imported: { type: 'integer' },
    updated: { type: 'integer' },
    columns: { type: 'array', items: { type: 'object', properties: { header: { type: 'string' }, field: { type: ['string', 'null'] } } } },
    ignoredColumns: { type: 'array', items: { type: 'string' } },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          row: { type: 'integer' },
          ok: { type: 'boolean' },
          id: { type: 'integer' },
          updated: { type: 'boolean' },
          cells: { type: 'object', additionalProperties: { type: 'string' } },
          errors: { type: 'array', items: errorSchema },
        },
      },
    },
  },
};

function fileRefusal(e: ImportFileError, doc: ResourceDocument, lang: Lang) {
  const params = { ...e.params };
  if (e.reason === 'noHeaders') {
    const sep = lang === 'zh' ? '、' : ', ';
    params.fields = importableFields(doc)
      .map((f) => doc.record.properties[f]['x-title']?.[lang] ?? f)
      .join(sep);
  }
  const key = msg[`import.${e.reason}` as keyof typeof msg];
  return business(key, params, (l: Lang): FieldError[] => [{ field: 'content', message: t(l, key, params) }]);
}

const contentRefusal = (key: keyof typeof msg, params: Record<string, string | number>) =>
  business(msg[key], params, (l: Lang): FieldError[] => [{ field: 'content', message: t(l, msg[key], params) }]);

/** Limits of an engine registered without the server's config (alone, as some tests do): the defaults, one set per app. */
const standalone = new WeakMap<FastifyInstance, { importConcurrency: number; importReadTimeoutMs: number }>();
function importLimitsOf(app: FastifyInstance): { importConcurrency: number; importReadTimeoutMs: number } {
  if (app.hasDecorator('config')) return app.config;
  let limits = standalone.get(app);
  if (!limits) {
    const { importConcurrency, importReadTimeoutMs } = loadConfig({});
    limits = { importConcurrency, importReadTimeoutMs };
    standalone.set(app, limits);
  }
  return limits;
}

/**
 * `POST {base}/import` (docs/import.md): a spreadsheet's rows created as records, each as
 * `POST {base}` would create it, with the create's authority and element code.
 */
export function registerImportRoute(app: FastifyInstance, doc: ResourceDocument, store: ResourceStore, grants: Grant[]): void {
  const grant = authorityDoc(grants);
  const slots = importSlotsOf(importLimitsOf(app));
  if (!closing.has(slots)) {
    closing.add(slots);
    app.addHook('onClose', () => slots.close());
  }
  app.post(
    operationEndpoint(doc, 'import').path.replace(/^\/api/, ''),
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags: [doc.name],
        summary: `${doc.title.en}: import from a spreadsheet`,
        description: `${grant.text} (the create's). Each row is validated and created as \`POST ${doc.basePath}\` would, in one transaction; a preview keeps nothing. One operation-log row \`${doc.name}.import\`.`,
        'x-authorities': grant['x-authorities'],
        body: importBodySchema,
        response: { 200: envelopeSchema(replySchema), 400: errorReplySchema, 401: errorReplySchema, 403: errorReplySchema, 413: errorReplySchema, 429: errorReplySchema },
      },
    },
    async (req) => {
      const user = requireCan(req, doc, 'create');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const body = req.body as { mode: ImportMode; fileName?: string; content: string; farmId?: number; update?: boolean };
      if (body.update && !doc.importKey) throw invalidInput([{ field: 'update', message: t(req.lang, msg['import.noKey']) }], req.lang);
      // Rows that update records are updates: the update's element code too.
      if (body.update) requireCan(req, doc, 'update');
      // A slot before the file is looked at: past the server's limit of imports at once, 42901.
      const slot = slots.acquire();
      try {
        const content = body.content.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(content) || content.length % 4 === 1) throw contentRefusal('import.notBase64', {});
        const bytes = Buffer.from(content, 'base64');
        if (bytes.length > IMPORT_MAX_BYTES) throw contentRefusal('import.tooLarge', { limit: IMPORT_MAX_BYTES / 1024 / 1024 });
        let sheet: ReturnType<typeof sheetRows>;
        try {
          sheet = sheetRows(doc, await slot.read(bytes));
        } catch (e) {
          if (e instanceof ImportFileError) throw fileRefusal(e, doc, req.lang);
          throw e;
        }
        if (!sheet.rows.length) throw contentRefusal('import.noRows', {});
        if (sheet.rows.length > IMPORT_MAX_ROWS) throw contentRefusal('import.tooManyRows', { count: sheet.rows.length, limit: IMPORT_MAX_ROWS });
        const outcome = await store.importRows(req.server.db, req, user, sheet.rows, { mode: body.mode, fileName: body.fileName, farmId: body.farmId, update: body.update === true });
        return reply(outcome, sheet, body, req.lang);
      } finally {
        slot.release();
      }
    },
  );
}

const closing = new WeakSet<object>();

function reply(outcome: ImportOutcome, sheet: ReturnType<typeof sheetRows>, body: { mode: ImportMode; update?: boolean }, lang: Lang) {
  const cells = new Map(sheet.rows.map((r) => [r.row, r.cells]));
  const data = {
    ...outcome,
    columns: sheet.columns,
    ignoredColumns: sheet.columns.filter((c) => c.header && !c.field).map((c) => c.header),
    rows: outcome.rows.map((r) => ({ ...r, cells: cells.get(r.row) ?? {} })),
  };
  const counts = { total: outcome.total, valid: outcome.valid, invalid: outcome.invalid, updated: outcome.updated, count: outcome.imported, created: outcome.imported - outcome.updated };
  const message = body.update
    ? t(lang, msg[body.mode === 'preview' ? 'import.checkedUpdates' : 'import.doneUpdates'], counts)
    : t(lang, msg[body.mode === 'preview' ? 'import.checked' : 'import.done'], counts);
  return ok(data, message);
}
