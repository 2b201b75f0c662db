/**
 * Files as a field type (issue 27 item 5; docs/resources.md "Files"): the upload, the
 * serving of files and thumbnails with the authority of the record that holds them, and the
 * sweeper of expired uploads and removed files. The attach rules are the field type's hooks
 * (field-type.ts), handed to the engine in server/modules.ts.
 *
 *   POST /api/files?resource=<name>&field=<property>   multipart, one file
 *   GET  /api/files/:id                                 the file
 *   GET  /api/files/:id/thumbnail                       a JPEG of at most 320 px (images)
 *   GET  /api/files/:id/meta                            {id, name, type, size, width, height, thumbnail}
 */
import { createHash, randomBytes } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/session-user.ts';
import type { Queryable } from '../db/database.ts';
import { ApiError, business, notFound, ok, Status } from '../http/envelope.ts';
import { caller, requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { readResourceDocuments } from '../resources/load.ts';
import { ResourceStore } from '../resources/store.ts';
import { invalidInput } from '../resources/validation.ts';
import { can } from '../../runtime/access/can.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import type { FileFieldSpec, FileType } from '../../runtime/schema/resource/types.ts';
import { PENDING_HOURS } from './field-type.ts';
import { imageFacts } from './images.ts';
import { sizeText } from './messages.ts';
import { isImage, looksLikeSvg, sniff, TYPE_NAMES } from './sniff.ts';
import { storageFor, type FileStorage } from './storage.ts';
import { isSeedKey, readSeedFile } from './seed-files.ts';

/** The multipart envelope around one file (boundaries, part headers, a long file name) at most. */
export const MULTIPART_OVERHEAD = 16 * 1024;
/** Uploads on no record one person may hold at once. */
export const MAX_PENDING = 100;
/** The sweeper's period. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    files: FileStorage;
  }
}

interface FileRow {
  id: number;
  name: string;
  mime: FileType;
  size: number;
  width: number | null;
  height: number | null;
  storage_key: string;
  thumb_key: string | null;
  uploaded_by: number | null;
  resource: string;
  field: string;
  record_id: number | null;
  fresh: boolean;
}

let catalogue: Promise<Map<string, ResourceDocument>> | undefined;
/** The resource documents, read once per process (the engine reads the same folder). */
function documents(): Promise<Map<string, ResourceDocument>> {
  catalogue ??= readResourceDocuments().then((docs) => new Map(docs.map((d) => [d.name, d])));
  return catalogue;
}

function fileField(doc: ResourceDocument | undefined, field: string): FileFieldSpec | undefined {
  return (doc?.record.properties[field] as { 'x-file'?: FileFieldSpec } | undefined)?.['x-file'];
}

/** A file name fit to show and to send in a header: no path, no control characters, at most 120 characters. */
export function cleanName(name: string | undefined, type: FileType): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const cleaned = base.replace(/[\u0000-\u001f\u007f<>"]/g, '').trim().slice(-120);
  return cleaned || `file.${TYPE_NAMES[type].toLowerCase()}`;
}

const fieldRefusal = (field: string, lang: Lang, key: string, params: Record<string, string | number>, httpStatus = 400) =>
  new ApiError(Status.BUSINESS, key, params, httpStatus, [{ field, message: t(lang, key, params) }]);

/** The rows of the caller's reading: an upload on no record is its uploader's; a file on a record, of those who may read that record. */
async function readable(db: Queryable, user: SessionUser, id: number): Promise<FileRow> {
  const { rows } = await db.query<FileRow>(
    `SELECT id, name, mime, size, width, height, storage_key, thumb_key, uploaded_by, resource, field, record_id,
            (uploaded_at > now() - make_interval(hours => $2)) AS fresh
       FROM files WHERE id = $1 AND removed_at IS NULL`,
    [id, PENDING_HOURS],
  );
  const row = rows[0];
  if (!row) throw notFound();
  if (row.record_id === null) {
    if (row.uploaded_by !== user.id || !row.fresh) throw notFound();
    return row;
  }
  const docs = await documents();
  const doc = docs.get(row.resource);
  // Someone who may not read the record meets the same 404 as a file that does not exist.
  if (!doc || !can(user, doc, 'read')) throw notFound();
  await new ResourceStore(doc, docs).get(db, user, Number(row.record_id));
  return row;
}

/** Deletes the bytes and rows of removed files and of uploads left on no record past PENDING_HOURS. */
export async function sweepFiles(db: Queryable, storage: FileStorage, limit = 500): Promise<number> {
  const { rows } = await db.query<{ id: number; storage_key: string; thumb_key: string | null }>(
    `SELECT id, storage_key, thumb_key FROM files
      WHERE removed_at IS NOT NULL OR (record_id IS NULL AND uploaded_at <= now() - make_interval(hours => $1))
      ORDER BY id LIMIT $2`,
    [PENDING_HOURS, limit],
  );
  for (const row of rows) {
    if (!isSeedKey(row.storage_key)) await storage.remove(row.storage_key);
    if (row.thumb_key && !isSeedKey(row.thumb_key)) await storage.remove(row.thumb_key);
    await db.query('DELETE FROM files WHERE id = $1', [row.id]);
  }
  return rows.length;
}

function metaOf(row: Pick<FileRow, 'id' | 'name' | 'mime' | 'size' | 'width' | 'height' | 'thumb_key'>) {
  return {
    id: Number(row.id),
    name: row.name,
    type: row.mime,
    size: Number(row.size),
    width: row.width,
    height: row.height,
    thumbnail: !!row.thumb_key,
  };
}

const fileMeta = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    type: { type: 'string' },
    size: { type: 'integer' },
    width: { type: ['integer', 'null'] },
    height: { type: ['integer', 'null'] },
    thumbnail: { type: 'boolean' },
  },
} as const;

const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;

async function upload(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
  const { resource, field } = req.query as { resource: string; field: string };
  const docs = await documents();
  const doc = docs.get(resource);
  const spec = fileField(doc, field);
  if (!doc || !spec) throw business('files.notFileField', { resource, field });
  // Whoever may write a record of the resource may upload for it (create or update).
  const user = can(caller(req), doc, 'create') ? caller(req) : requireCan(req, doc, 'update');
  const title = doc.record.properties[field]?.['x-title']?.[req.lang] ?? field;
  const limit = Math.min(spec.maxBytes, app.config.fileMaxBytes);
  const accepted = spec.accept.map((type) => TYPE_NAMES[type]).join(' / ');

  // Before a byte of the body is read: a declared length past the limit is refused, and the
  // connection is closed rather than drained.
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit + MULTIPART_OVERHEAD) {
    reply.header('connection', 'close');
    throw fieldRefusal(field, req.lang, 'files.tooLarge', { field: title, max: sizeText(limit) }, 413);
  }
  if (!req.isMultipart()) throw business('files.notMultipart');
  const pending = await app.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM files WHERE uploaded_by = $1 AND record_id IS NULL AND removed_at IS NULL AND uploaded_at > now() - make_interval(hours => $2)`,
    [user.id, PENDING_HOURS],
  );
  if ((pending.rows[0]?.n ?? 0) >= MAX_PENDING) throw new ApiError(Status.TOO_MANY, 'files.tooManyPending', { max: MAX_PENDING });

  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  let data: Buffer;
  try {
    part = await req.file({ limits: { fileSize: limit, files: 1, fields: 0, parts: 1, headerPairs: 20 } });
    if (!part) throw fieldRefusal(field, req.lang, 'files.noFile', { field: title });
    // Read with the limit: a body without a length (chunked) stops at limit + 1 bytes.
    data = await part.toBuffer();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      reply.header('connection', 'close');
      throw fieldRefusal(field, req.lang, 'files.tooLarge', { field: title, max: sizeText(limit) }, 413);
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw business('files.notMultipart');
    throw e;
  }
  if (!data.length) throw fieldRefusal(field, req.lang, 'files.emptyFile', { field: title });

  const type = sniff(data);
  if (!type || !(spec.accept as string[]).includes(type)) {
    const key = !type && looksLikeSvg(data) ? 'files.svg' : 'files.wrongType';
    throw fieldRefusal(field, req.lang, key, { field: title, types: accepted });
  }
  let width: number | null = null;
  let height: number | null = null;
  let thumbnail: Buffer | null = null;
  if (isImage(type)) {
    const facts = await imageFacts(data);
    if (!facts) throw fieldRefusal(field, req.lang, 'files.unreadableImage', { field: title });
    ({ width, height, thumbnail } = facts);
  }
  const stamp = new Date().toISOString().slice(0, 7);
  const key = `${stamp}/${randomBytes(16).toString('hex')}`;
  const thumbKey = thumbnail ? `${key}.thumb.jpg` : null;
  await app.files.put(key, data, type);
  if (thumbnail && thumbKey) await app.files.put(thumbKey, thumbnail, 'image/jpeg');
  const name = cleanName(part.filename, type);
  const { rows } = await app.db.query<FileRow>(
    `INSERT INTO files(name, mime, size, width, height, sha256, storage_key, thumb_key, uploaded_by, resource, field)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     RETURNING id, name, mime, size, width, height, thumb_key`,
    [name, type, data.length, width, height, createHash('sha256').update(data).digest('hex'), key, thumbKey, user.id, resource, field],
  );
  return ok(metaOf(rows[0]), t(req.lang, 'common.ok'));
}

async function serve(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, thumbnail: boolean) {
  const { id } = req.params as { id: number };
  const row = await readable(app.db, caller(req), id);
  const key = thumbnail ? row.thumb_key : row.storage_key;
  if (!key) throw notFound();
  const bytes = isSeedKey(key) ? await readSeedFile(key) : await app.files.get(key);
  if (!bytes) throw notFound();
  const type = thumbnail ? 'image/jpeg' : row.mime;
  const name = thumbnail ? `thumbnail-${row.name.replace(/\.[^.]*$/, '')}.jpg` : row.name;
  // Images open in place; a document downloads. Either way the browser may not guess another
  // type, and the file runs nothing if opened on its own.
  const disposition = isImage(type) ? 'inline' : 'attachment';
  return reply
    .header('content-type', type)
    .header('content-disposition', `${disposition}; filename="${encodeURIComponent(name).replace(/%20/g, ' ')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=300')
    .send(bytes);
}

export const filesRoutes: FastifyPluginAsync = async (app) => {
  app.decorate('files', storageFor(app.config.fileStorage, app.config.dataDir));
  await app.register(fastifyMultipart, {
    limits: { fileSize: app.config.fileMaxBytes, files: 1, fields: 0, parts: 1, headerPairs: 20 },
  });
  // The documents are read on the first request (the engine has checked them at start).

  app.post(
    '/files',
    {
      schema: {
        tags: ['files'],
        summary: 'Upload one file for a file field (multipart/form-data, part "file")',
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['resource', 'field'],
          properties: { resource: { type: 'string', pattern: '^[a-z][A-Za-z0-9]{1,39}$' }, field: { type: 'string', pattern: '^[a-z][A-Za-z0-9]{0,39}$' } },
        },
        response: { 200: { type: 'object', properties: { status: { type: 'integer' }, message: { type: 'string' }, data: fileMeta } } },
      },
    },
    (req, reply) => upload(app, req, reply),
  );
  app.get('/files/:id', { schema: { tags: ['files'], summary: 'A file, for whoever may read its record', params: idParams } }, (req, reply) => serve(app, req, reply, false));
  app.get('/files/:id/thumbnail', { schema: { tags: ['files'], summary: "An image's thumbnail (JPEG, at most 320 px)", params: idParams } }, (req, reply) =>
    serve(app, req, reply, true),
  );
  app.get(
    '/files/:id/meta',
    { schema: { tags: ['files'], summary: "A file's name, type and size", params: idParams, response: { 200: { type: 'object', properties: { status: { type: 'integer' }, message: { type: 'string' }, data: fileMeta } } } } },
    async (req) => ok(metaOf(await readable(app.db, caller(req), (req.params as { id: number }).id)), t(req.lang, 'common.ok')),
  );

  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = sweepFiles(app.db, app.files).catch((err) => app.log.error({ err }, 'sweeping files failed'));
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    sweep();
    timer = setInterval(sweep, SWEEP_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
};
