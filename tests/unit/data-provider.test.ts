/**
 * The services' data provider (runtime/app/data-provider.ts): the one place that turns a
 * renderer's data source into a method and a URL, over a real HTTP server.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataProvider } from '../../runtime/app/data-provider.ts';
import { registerDefaultFeatures } from '../../runtime/app/default-features.ts';
import { createHttpClient } from '../../runtime/http/client.ts';
import { createNotifierSlot } from '../../runtime/http/notifier-slot.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { buildRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import { json, startHttpStub } from './http-stub.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const registry = buildRegistry((folderSource(ROOT).documents() as SourceDocument[]).map((d) => ({ ...d, source: 'bundled' })));
let stub: Awaited<ReturnType<typeof startHttpStub>>;

beforeAll(async () => {
  registerDefaultFeatures();
  stub = await startHttpStub({
    '/api/promotion/appVersions/page': (_req, res) => json(res, 200, { status: 200, message: 'ok', data: { rows: [{ id: 1 }], total: 1, pageIndex: 1, pageSize: 20 } }),
    '/api/promotion/appVersions/7': (_req, res) => json(res, 200, { status: 200, message: 'saved', data: { id: 7 } }),
    '/api/coverfield/notice/notReadNumber': (_req, res) => json(res, 200, { status: 200, message: 'ok', data: 3 }),
    '/api/admin/user/front/regist': (_req, res) => json(res, 200, { status: 200, message: 'waiting for review', data: null }),
  });
});
afterAll(() => stub.close());

function provider() {
  const http = createHttpClient({ baseUrl: stub.baseUrl, getToken: () => 't', getLanguage: () => 'en', notifier: createNotifierSlot(), translate: (k) => k, endSession: () => undefined, log: () => undefined });
  return createDataProvider(http);
}

describe('data provider', () => {
  it('locates resource operations through the protocol table, endpoint references and dictionaries', () => {
    const data = provider();
    expect(data.key({ registry, source: { resource: 'appVersions', operation: 'page' } })).toBe('GET /api/promotion/appVersions/page');
    expect(data.key({ registry, source: { resource: 'appVersions', operation: 'update', id: 7 } })).toBe('PUT /api/promotion/appVersions/7');
    expect(data.key({ registry, source: { resource: 'appVersions', operation: 'batchDelete' } })).toBe('DELETE /api/promotion/appVersions/batch');
    expect(data.key({ registry, source: { endpoint: { operation: 'read', params: { id: 'route.id' } }, ctx: { route: { id: '3' } }, screenResource: 'appVersions' } })).toBe(
      'GET /api/promotion/appVersions/3',
    );
    expect(data.key({ registry, source: { dictionary: 'crop type' } })).toBe('GET /api/dict/crop%20type/items');
    expect(data.key({ registry, source: { resource: 'plantRules', transition: 'approve', id: 4 } })).toBe('POST /api/kms/plantRules/4/transitions/approve');
    expect(data.key({ registry, source: { resource: 'plantRules', transition: 'noSuchStep', id: 4 } })).toBeNull();
  });

  it('answers null for what it cannot locate: an unknown resource, a missing parameter', () => {
    const data = provider();
    expect(data.key({ registry, source: { resource: 'noSuchThing', operation: 'page' } })).toBeNull();
    expect(data.key({ registry, source: { endpoint: { path: '/api/x/:id' }, ctx: { route: {} } } })).toBeNull();
  });

  it('reads the reply data with the query parameters, and writes with the body', async () => {
    const data = provider();
    const page = await data.query<{ total: number }>({ registry, source: { resource: 'appVersions', operation: 'page' }, params: { pageIndex: 2, name: 'a b' } });
    expect(page.total).toBe(1);
    expect(stub.requests.at(-1)).toMatchObject({ method: 'GET', url: '/api/promotion/appVersions/page?pageIndex=2&name=a+b' });
    const reply = await data.mutate({ registry, source: { resource: 'appVersions', operation: 'update', id: 7 }, body: { name: 'x' } });
    expect(reply.message).toBe('saved');
    expect(stub.requests.at(-1)).toMatchObject({ method: 'PUT', url: '/api/promotion/appVersions/7', body: '{"name":"x"}' });
  });

  it('makes the named calls of the protocol at their URLs, with parameters and body', async () => {
    const data = provider();
    const count = await data.call<number>('unreadNotices', { params: { userId: 5 }, quiet: true });
    expect(count.data).toBe(3);
    expect(stub.requests.at(-1)).toMatchObject({ method: 'GET', url: '/api/coverfield/notice/notReadNumber?userId=5' });
    const registered = await data.call('register', { body: { username: 'u1' }, quiet: true });
    expect(registered.message).toBe('waiting for review');
    expect(stub.requests.at(-1)).toMatchObject({ method: 'POST', url: '/api/admin/user/front/regist', body: '{"username":"u1"}' });
  });
});
