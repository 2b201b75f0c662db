/**
 * The engine's public reads (a document's `publicRead`), through the articles that declare
 * one, on every engine: without a token, only records matching the declared filter and
 * only the declared fields; drafts never leak, through the record, the search, its count
 * or its keyword; and the document checks refuse a public read naming what is not there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { checkResourceDocument, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { publicEndpoint } from '../../runtime/protocol/operations.ts';
import { call, docs } from './resource-fixtures.ts';

const articles = docs.find((d) => d.name === 'articles')!;
const pub = articles.publicRead!;
const searchPath = publicEndpoint(pub, 'publicSearch').path;
const readPath = (id: number) => publicEndpoint(pub, 'publicRead').path.replace(':id', String(id));

describe.each(engines())('public reads on $name', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the declared public URLs of the articles', () => {
    expect([searchPath, publicEndpoint(pub, 'publicRead').path]).toEqual(['/api/articles/public/search', '/api/articles/public/:id']);
  });

  it('never lets a draft out: not by id, not in the search, not in its count, not by a keyword only the draft holds', async () => {
    const marker = `秘密草稿${Date.now()}`;
    const draft = await call(t, admin, 'POST', articles.basePath, { title: marker, summary: marker, category: 'policy', status: 0, content: `<p>${marker}</p>` });
    expect(draft.status).toBe(200);
    const before = await call(t, null, 'GET', `${searchPath}?pageSize=500`);
    expect(before.status).toBe(200);
    expect(before.data.rows.map((r: { id: number }) => r.id)).not.toContain(draft.data.id);
    const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'articles' AND data->>'status' = '1'`);
    expect(before.data.total).toBe(rows[0].n);
    expect((await call(t, null, 'GET', readPath(draft.data.id))).status).toBe(40401);
    expect((await call(t, null, 'GET', `${searchPath}?keyword=${encodeURIComponent(marker)}`)).data.total).toBe(0);
    expect((await call(t, null, 'GET', `${searchPath}?category=policy&pageSize=500`)).data.rows.map((r: { id: number }) => r.id)).not.toContain(draft.data.id);

    // Published, it appears with exactly the declared fields; withdrawn, it is gone again.
    const published = await call(t, admin, 'PUT', `${articles.basePath}/${draft.data.id}`, { ...draft.data, status: 1 });
    expect(published.status).toBe(200);
    const one = await call(t, null, 'GET', readPath(draft.data.id));
    expect(one.status).toBe(200);
    expect(Object.keys(one.data).sort()).toEqual(['id', ...pub.fields, ...(pub.detailFields ?? [])].sort());
    expect(one.data).toMatchObject({ id: draft.data.id, title: marker, coverUrl: null, content: `<p>${marker}</p>` });
    const found = await call(t, null, 'GET', `${searchPath}?keyword=${encodeURIComponent(marker)}`);
    expect(found.data.total).toBe(1);
    expect(Object.keys(found.data.rows[0]).sort()).toEqual(['id', ...pub.fields].sort());
    const withdrawn = await call(t, admin, 'PUT', `${articles.basePath}/${draft.data.id}`, { ...published.data, status: 0 });
    expect(withdrawn.status).toBe(200);
    expect((await call(t, null, 'GET', readPath(draft.data.id))).status).toBe(40401);
  });

  it('does not open any other record of the table: an id of another resource is not found', async () => {
    const crop = (await t.db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = 'crops' LIMIT 1`)).rows[0];
    expect((await call(t, null, 'GET', readPath(Number(crop.id)))).status).toBe(40401);
  });

  it('refuses undeclared parameters and bad values in the caller’s language', async () => {
    const r = await call(t, null, 'GET', `${searchPath}?status=0`, undefined, 'en');
    expect([r.http, r.status]).toEqual([400, 40001]);
    expect(r.data.errors[0].field).toBe('status');
    expect((await call(t, null, 'GET', `${searchPath}?keyword=${'x'.repeat(65)}`)).status).toBe(40001);
  });
});

describe('public read declarations', () => {
  const problemsOf = (mutate: (d: ResourceDocument) => void) => {
    const doc = structuredClone(articles);
    mutate(doc);
    return checkResourceDocument(doc).map((p) => `${p.pointer} ${p.message}`);
  };

  it('refuse fields, filters, keyword fields and sorts that are not properties of the right kind', () => {
    expect(problemsOf(() => undefined)).toEqual([]);
    expect(problemsOf((d) => d.publicRead!.fields.push('secret'))).toEqual(['/publicRead/fields/6 names "secret", which is not a property of the record']);
    expect(problemsOf((d) => (d.publicRead!.where = { status: '1' }))).toEqual(['/publicRead/where/status is a string, but "status" holds numbers']);
    expect(problemsOf((d) => (d.publicRead!.keyword!.fields = ['status']))).toEqual(['/publicRead/keyword/fields/0 "status" must be a string property']);
    expect(problemsOf((d) => (d.publicRead!.sort = '-when'))).toEqual(['/publicRead/sort names "when", which is not a property of the record']);
    expect(problemsOf((d) => (d.publicRead!.basePath = d.basePath))).toEqual(['/publicRead/basePath must differ from the resource’s own base path']);
    expect(problemsOf((d) => (d.publicRead!.detailFields = ['title']))).toEqual(['/publicRead/detailFields/0 "title" is already among "fields"']);
  });
});
