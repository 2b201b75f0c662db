import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Params } from '../db/params.ts';
import type { Queryable } from '../db/database.ts';
import { notFound, ok } from '../http/envelope.ts';
import { publicEndpoint } from '../../runtime/protocol/operations.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import type { PublicRead } from '../../runtime/schema/public-read.ts';
import { DEFAULT_PAGE_SIZE, envelopeSchema, errorReplySchema, pageOf, pageParamsSchema, pageSchema, type Page } from './page.ts';
import { fieldExpr, ident, paramCast } from './sql.ts';
import { refuseValidation, resourceValidatorCompiler } from './validation.ts';
import { idParamsSchema } from './routes.ts';

type PublicRow = Record<string, unknown>;

/**
 * A document's public reads (runtime/schema/public-read.ts), served without a token:
 * only records matching its `where`, only its fields. The filter is part of every
 * query, so a record outside it is not found and never counted.
 */
export class PublicReader {
  constructor(
    readonly doc: ResourceDocument,
    readonly pub: PublicRead,
  ) {}

  private where(p: Params): string[] {
    return [`r.resource = ${ident(this.doc.name)}`, ...Object.entries(this.pub.where).map(([f, v]) => `${fieldExpr(this.doc, f)} = ${p.add(v)}::${paramCast(this.doc, f)}`)];
  }

  private view(id: number, data: Record<string, unknown>, detail: boolean): PublicRow {
    const out: PublicRow = { id: Number(id) };
    for (const f of [...this.pub.fields, ...(detail ? (this.pub.detailFields ?? []) : [])]) out[f] = data[f] ?? null;
    return out;
  }

  async get(db: Queryable, id: number): Promise<PublicRow> {
    const p = new Params();
    const cond = [...this.where(p), `r.id = ${p.add(id)}`].join(' AND ');
    const { rows } = await db.query<{ id: number; data: Record<string, unknown> }>(`SELECT r.id, r.data FROM resource_records r WHERE ${cond}`, p.values);
    if (!rows[0]) throw notFound();
    return this.view(rows[0].id, rows[0].data, true);
  }

  /** The public filter, the keyword and the equality filters of a search query. */
  private conditions(p: Params, q: Record<string, unknown>): string {
    const where = this.where(p);
    const keyword = typeof q.keyword === 'string' ? q.keyword.trim().toLowerCase() : '';
    if (keyword && this.pub.keyword) {
      const k = p.add(keyword);
      // position() keeps % and _ literal.
      where.push(`(${this.pub.keyword.fields.map((f) => `position(${k} in lower(coalesce(${fieldExpr(this.doc, f)}, ''))) > 0`).join(' OR ')})`);
    }
    for (const f of this.pub.filters ?? []) {
      if (q[f] !== undefined) where.push(`${fieldExpr(this.doc, f)} = ${p.add(q[f])}::${paramCast(this.doc, f)}`);
    }
    return where.join(' AND ');
  }

  /** The declared sort, ties by id in the direction of its last key. */
  private order(): string {
    const order = this.pub.sort
      .split(',')
      .map((part) => `${fieldExpr(this.doc, part.replace(/^-/, ''))} ${part.startsWith('-') ? 'DESC' : 'ASC'}`);
    const last = this.pub.sort.split(',').at(-1)!;
    if (last.replace(/^-/, '') !== 'id') order.push(`r.id ${last.startsWith('-') ? 'DESC' : 'ASC'}`);
    return order.join(', ');
  }

  async search(db: Queryable, q: Record<string, unknown>): Promise<Page<PublicRow>> {
    const p = new Params();
    const cond = this.conditions(p, q);
    const pageIndex = (q.pageIndex as number | undefined) ?? 1;
    const pageSize = (q.pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE;
    const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records r WHERE ${cond}`, p.values)).rows[0].n;
    const { rows } = await db.query<{ id: number; data: Record<string, unknown> }>(
      `SELECT r.id, r.data FROM resource_records r WHERE ${cond} ORDER BY ${this.order()} LIMIT ${p.add(pageSize)} OFFSET ${p.add((pageIndex - 1) * pageSize)}`,
      p.values,
    );
    return pageOf(
      rows.map((r) => this.view(r.id, r.data, false)),
      total,
      pageIndex,
      pageSize,
    );
  }

  /**
   * The first record of the search in its declared order, with its detail fields, or null:
   * "the newest published version for android" is the first of the search filtered by
   * platform and sorted by -versionCode. One query, no count.
   */
  async first(db: Queryable, q: Record<string, unknown>): Promise<PublicRow | null> {
    const p = new Params();
    const { rows } = await db.query<{ id: number; data: Record<string, unknown> }>(
      `SELECT r.id, r.data FROM resource_records r WHERE ${this.conditions(p, q)} ORDER BY ${this.order()} LIMIT 1`,
      p.values,
    );
    return rows[0] ? this.view(rows[0].id, rows[0].data, true) : null;
  }
}

/** JSON Schema of a public row: `id` and the declared fields, each nullable. */
function publicRowSchema(doc: ResourceDocument, fields: string[]): Record<string, unknown> {
  const properties: Record<string, unknown> = { id: { type: 'integer' } };
  for (const f of fields) {
    const { type, ...rest } = doc.record.properties[f];
    const described = Object.fromEntries(Object.entries(rest).filter(([k]) => ['format', 'maxLength', 'enum', 'items', 'properties'].includes(k)));
    properties[f] = { ...described, type: [type, 'null'], ...(described.enum ? { enum: [...(described.enum as unknown[]), null] } : {}) };
  }
  return { type: 'object', additionalProperties: false, required: ['id', ...fields], properties };
}

function filterSchema(doc: ResourceDocument, field: string): Record<string, unknown> {
  const prop = doc.record.properties[field];
  const type = prop.type === 'integer' || prop.type === 'number' ? prop.type : prop.type === 'boolean' ? 'boolean' : 'string';
  return { type, ...(prop.enum ? { enum: prop.enum } : {}), ...(prop.maxLength ? { maxLength: prop.maxLength } : {}), description: `${field} equals` };
}

function checked(req: FastifyRequest) {
  if (req.validationError) throw refuseValidation(req.validationError, req.lang);
}

/** GET {publicRead.basePath}/:id and /search of one document, without a token. */
export function registerPublicReadRoutes(app: FastifyInstance, doc: ResourceDocument): void {
  const pub = doc.publicRead;
  if (!pub) return;
  const reader = new PublicReader(doc, pub);
  const at = (op: 'publicRead' | 'publicSearch') => publicEndpoint(pub, op).path.replace(/^\/api/, '');
  const errors = { 400: errorReplySchema, 404: errorReplySchema };
  const common = { validatorCompiler: resourceValidatorCompiler, attachValidation: true, config: { public: true } };
  const scope = `Records where ${Object.entries(pub.where)
    .map(([f, v]) => `${f} = ${JSON.stringify(v)}`)
    .join(' and ')} only; any other answers 40401. No token needed.`;
  const querystring: Record<string, unknown> = { ...pageParamsSchema };
  if (pub.keyword) querystring.keyword = { type: 'string', maxLength: pub.keyword.maxLength, description: `Contained in ${pub.keyword.fields.join(', ')} (case-insensitive)` };
  for (const f of pub.filters ?? []) querystring[f] = filterSchema(doc, f);

  app.get(
    at('publicSearch'),
    {
      ...common,
      schema: {
        tags: [doc.name],
        summary: `${doc.title.en}: public search, ordered by ${pub.sort}`,
        description: scope,
        querystring: { type: 'object', additionalProperties: false, properties: querystring },
        response: { 200: envelopeSchema(pageSchema(publicRowSchema(doc, pub.fields))), ...errors },
      },
    },
    async (req) => {
      checked(req);
      return ok(await reader.search(req.server.db, req.query as Record<string, unknown>));
    },
  );

  app.get(
    at('publicRead'),
    {
      ...common,
      schema: {
        tags: [doc.name],
        summary: `${doc.title.en}: one public record`,
        description: scope,
        params: idParamsSchema,
        response: { 200: envelopeSchema(publicRowSchema(doc, [...pub.fields, ...(pub.detailFields ?? [])])), ...errors },
      },
    },
    async (req) => {
      checked(req);
      return ok(await reader.get(req.server.db, (req.params as { id: number }).id));
    },
  );
}
