/**
 * Deterministic fixture data for screens, derived from resource documents, served at the
 * HTTP client's transport boundary (its `fetch`): page queries, single records, and
 * writes echo. No network, no randomness, the same rows for the same schema every run.
 */
import type { FieldSchema, ResourceDocument } from '../../runtime/schema/resource.ts';
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';

const BASE_TIME = Date.UTC(2026, 2, 1, 8, 0, 0);

function stringValue(field: string, prop: FieldSchema, i: number): string {
  if (prop.enum) return String(prop.enum[i % prop.enum.length]);
  if (prop.format === 'date') return new Date(BASE_TIME + i * 86_400_000).toISOString().slice(0, 10);
  if (prop.format === 'date-time') return new Date(BASE_TIME + i * 3_600_000).toISOString();
  if (prop.format === 'email') return `user${i}@example.com`;
  if (prop.format === 'uri') return `https://example.com/${field}/${i}`;
  if (prop.pattern) {
    const re = new RegExp(prop.pattern);
    const candidates = [`0${(i % 9) + 1}-${10 + (i % 18)}`, `${field}${i}`, String(i), `A${i}`];
    const hit = candidates.find((c) => re.test(c));
    if (hit) return hit;
  }
  const title = prop['x-title']?.en ?? field;
  const text = `${title} ${i}`;
  return prop.maxLength ? text.slice(0, prop.maxLength) : text;
}

function numberValue(prop: FieldSchema, i: number): number {
  if (prop.enum) return Number(prop.enum[i % prop.enum.length]);
  const min = prop.minimum ?? 0;
  const max = prop.maximum ?? min + 1000;
  const span = Math.max(1, max - min);
  const v = min + ((i * 7) % (span + 1));
  return prop.type === 'integer' ? Math.round(v) : Math.round(v * 10) / 10 + (v < max ? 0.5 : 0);
}

export function fieldValue(field: string, prop: FieldSchema, i: number): unknown {
  switch (prop.type) {
    case 'string':
      return stringValue(field, prop, i);
    case 'integer':
    case 'number':
      return numberValue(prop, i);
    case 'boolean':
      return i % 2 === 0;
    case 'array': {
      const items = prop.items;
      if (!items) return [];
      const n = Math.min(prop.maxItems ?? 2, 2);
      const out: unknown[] = [];
      for (let k = 0; k < n; k++) out.push(fieldValue(field, items, i + k));
      return prop.uniqueItems ? [...new Map(out.map((v) => [JSON.stringify(v), v])).values()] : out;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(prop.properties ?? {})) out[k] = fieldValue(k, p, i);
      return out;
    }
  }
}

/** Row `i` (from 1) of a resource, meta fields and reference labels included. */
export function fixtureRow(doc: ResourceDocument, registry: SchemaRegistry, i: number): Record<string, unknown> {
  const row: Record<string, unknown> = {
    id: i,
    version: 1,
    farmId: doc.scope === 'farm' ? 1 : null,
    farmName: doc.scope === 'farm' ? 'Demo farm' : null,
    blocId: doc.scope === 'group' ? 1 : null,
    createdAt: new Date(BASE_TIME + i * 3_600_000).toISOString(),
    updatedAt: new Date(BASE_TIME + i * 7_200_000).toISOString(),
    createdBy: 1,
    updatedBy: 1,
  };
  const labels: Record<string, string> = {};
  for (const [field, prop] of Object.entries(doc.record.properties)) row[field] = fieldValue(field, prop, i);
  for (const [field, ref] of Object.entries(doc.references ?? {})) {
    row[field] = ((i - 1) % 3) + 1;
    const target = registry.resource(ref.resource);
    const targetRow = target ? fixtureRow(target, registry, row[field] as number) : null;
    labels[field] = targetRow && target ? String(targetRow[target.displayField] ?? row[field]) : String(row[field]);
  }
  row.labels = labels;
  return row;
}

export const FIXTURE_ROWS = 3;

export interface FixtureTransport {
  fetch: typeof fetch;
  /** Requests answered so far ("GET /api/kms/crops/page?…"). */
  log: string[];
  /** Requests not yet answered. */
  pending(): number;
}

/** A fetch answering the resource engine's endpoints of every resource in the registry. */
export function fixtureTransport(registry: SchemaRegistry, opts: { pageExtra?: Record<string, unknown> } = {}): FixtureTransport {
  const log: string[] = [];
  let pending = 0;
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status: status === 200 ? 200 : 400, headers: { 'content-type': 'application/json' } });

  const answer = (method: string, url: URL, body: unknown): Response => {
    for (const doc of registry.resources.values()) {
      const base = doc.doc.basePath;
      if (!url.pathname.startsWith(base)) continue;
      const rest = url.pathname.slice(base.length);
      if (method === 'GET' && rest === '/page') {
        const pageSize = Number(url.searchParams.get('pageSize') ?? 20);
        const pageIndex = Number(url.searchParams.get('pageIndex') ?? 1);
        const rows = [];
        for (let i = (pageIndex - 1) * pageSize + 1; i <= Math.min(FIXTURE_ROWS, pageIndex * pageSize); i++) rows.push(fixtureRow(doc.doc, registry, i));
        return reply(200, { status: 200, message: 'ok', data: { rows, total: FIXTURE_ROWS, pageIndex, pageSize, ...opts.pageExtra } });
      }
      const id = /^\/(\d+)$/.exec(rest)?.[1];
      if (method === 'GET' && id) return reply(200, { status: 200, message: 'ok', data: fixtureRow(doc.doc, registry, Number(id)) });
      if ((method === 'POST' && rest === '') || (method === 'PUT' && id))
        return reply(200, { status: 200, message: 'ok', data: { ...fixtureRow(doc.doc, registry, Number(id ?? FIXTURE_ROWS + 1)), ...(body as object) } });
      if (method === 'DELETE') return reply(200, { status: 200, message: 'ok', data: { deleted: 1 } });
    }
    return reply(200, { status: 200, message: 'ok', data: {} });
  };

  const fixtureFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    pending++;
    try {
      const url = new URL(String(input), 'http://fixture.local');
      const method = init?.method ?? 'GET';
      log.push(`${method} ${url.pathname}${url.search}`);
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      // A macrotask, as a real reply would be: renders settle between request and reply.
      await new Promise((r) => setTimeout(r, 0));
      return answer(method, url, body);
    } finally {
      pending--;
    }
  }) as typeof fetch;
  return { fetch: fixtureFetch, log, pending: () => pending };
}
