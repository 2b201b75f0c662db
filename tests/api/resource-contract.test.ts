import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { MAX_PAGE_SIZE, scalarTypeOf, filterParamNames, type ResourceDocument } from '../../runtime/schema/resource.ts';
import { transitionOwnedFields } from '../../runtime/schema/transitions.ts';
import { allCodes, call, demoOrg, docs, makeUser, recordOf, someRow, variant, writeOrSkip, declaredRefusals, type Body } from './resource-fixtures.ts';

const byName = (list: ResourceDocument[]) => list.map((d) => [d.name, d] as const);

async function logRows(t: TestApp, action: string, recordId: number) {
  const { rows } = await t.db.query<{ action: string; username: string; changes: any; ip: string | null }>(
    'SELECT action, username, changes, ip FROM operation_log WHERE action = $1 AND record_id = $2 ORDER BY id',
    [action, String(recordId)],
  );
  return rows;
}

describe.each(engines())('resource endpoints on $name', (engine) => {
  let t: TestApp;
  let admin: string;
  let writer: { id: number; token: string };
  let farm1: { orgId: number; blocId: number | null };

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.login('admin');
    farm1 = await demoOrg(t.db, 'farm');
    writer = await makeUser(t, { orgId: farm1.orgId, ...allCodes() });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses every resource endpoint without a token (40101)', async () => {
    for (const doc of docs) {
      for (const [method, url] of [
        ['GET', `${doc.basePath}/page`],
        ['GET', `${doc.basePath}/1`],
        ['POST', doc.basePath],
        ['PUT', `${doc.basePath}/1`],
        ['DELETE', `${doc.basePath}/1`],
        ['DELETE', `${doc.basePath}/batch`],
      ] as const) {
        const r = await call(t, null, method, url, method === 'GET' ? undefined : {});
        expect([r.http, r.status], `${method} ${url}`).toEqual([401, 40101]);
      }
    }
  });

  describe.each(byName(docs))('%s', (_name, doc) => {
    const base = doc.basePath;

    it('pages with the one page shape, the default sort and page size', async () => {
      const r = await call(t, admin, 'GET', `${base}/page`);
      expect(r.http).toBe(200);
      expect(r.status).toBe(200);
      // The administrator reads every farm: a farm-owned resource's page says so (spansFarms).
      expect(Object.keys(r.data).sort()).toEqual(doc.scope === 'farm' ? ['pageIndex', 'pageSize', 'rows', 'spansFarms', 'total'] : ['pageIndex', 'pageSize', 'rows', 'total']);
      if (doc.scope === 'farm') expect(r.data.spansFarms).toBe(true);
      expect(r.data.pageIndex).toBe(1);
      expect(r.data.pageSize).toBe(20);
      expect(r.data.total).toBeGreaterThan(0);
      expect(r.data.rows.length).toBe(Math.min(20, r.data.total));
      for (const row of r.data.rows) {
        for (const meta of ['id', 'version', 'farmId', 'blocId', 'createdAt', 'updatedAt', 'labels']) expect(row).toHaveProperty(meta);
        for (const key of Object.keys(row)) {
          // `_transitions`: the hint of documents declaring transitions (docs/resources.md, "States and transitions").
          // `_can`: per-record hints of an extension (docs/resources.md, "Extensions").
          const hint = doc.transitions ? ['_transitions', '_can'] : ['_can'];
          expect(['id', 'version', 'farmId', 'farmName', 'blocId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'labels', ...hint, ...Object.keys(doc.record.properties)]).toContain(key);
        }
        for (const ref of Object.keys(doc.references ?? {})) if (row[ref] != null) expect(typeof row.labels[ref]).toBe('string');
        if (doc.scope === 'platform') expect(row.farmId).toBeNull();
      }
      const p2 = await call(t, admin, 'GET', `${base}/page?pageIndex=2&pageSize=1`);
      expect(p2.data.total).toBe(r.data.total);
      expect(p2.data.rows.length).toBe(r.data.total >= 2 ? 1 : 0);
      const far = await call(t, admin, 'GET', `${base}/page?pageIndex=100000&pageSize=${MAX_PAGE_SIZE}`);
      expect([far.status, far.data.rows.length, far.data.total]).toEqual([200, 0, r.data.total]);
    });

    it('sorts by every sortable field, both ways, stably', async () => {
      for (const field of [...doc.sortable, 'id', 'createdAt', 'updatedAt']) {
        const asc = await call(t, admin, 'GET', `${base}/page?pageSize=500&sort=${field}`);
        const desc = await call(t, admin, 'GET', `${base}/page?pageSize=500&sort=-${field}`);
        expect(asc.status, field).toBe(200);
        const ascIds = asc.data.rows.map((r: Body) => r.id);
        expect(desc.data.rows.map((r: Body) => r.id), field).toEqual([...ascIds].reverse());
        if (scalarTypeOf(doc.record.properties[field]) === 'number') {
          const values = asc.data.rows.map((r: Body) => r[field]).filter((v: unknown) => v != null) as number[];
          expect(values, field).toEqual([...values].sort((a, b) => a - b));
        }
      }
    });

    it('filters by every searchable field with its filter kind', async () => {
      const all = (await call(t, admin, 'GET', `${base}/page?pageSize=500`)).data.rows as Body[];
      for (const s of doc.searchable) {
        if (s.filter === 'keyword') {
          // One parameter over several string fields: a part of the first field's value finds its row, and every row found holds it in one of them.
          const fields = s.fields ?? [];
          const first = fields[0];
          const sample = all.find((row) => typeof row[first] === 'string' && (row[first] as string).length > 0);
          expect(sample, `a seeded ${doc.name} row has ${first}`).toBeDefined();
          const part = (sample![first] as string).slice(1, 3) || (sample![first] as string);
          const r = await call(t, admin, 'GET', `${base}/page?pageSize=500&${new URLSearchParams({ [s.field]: part.toUpperCase() })}`);
          expect(r.status, `${s.field}=${part}`).toBe(200);
          expect(r.data.rows.map((x: Body) => x.id)).toContain(sample!.id);
          for (const row of r.data.rows) expect(fields.some((f) => String(row[f] ?? '').toLowerCase().includes(part.toLowerCase())), `${s.field}=${part}`).toBe(true);
          continue;
        }
        const sample = all.find((row) => row[s.field] != null && row[s.field] !== '');
        expect(sample, `a seeded ${doc.name} row has ${s.field}`).toBeDefined();
        const value = sample![s.field] as string | number | boolean;
        const q = new URLSearchParams();
        let accept: (v: unknown) => boolean;
        if (s.filter === 'eq') {
          q.set(s.field, String(value));
          accept = (v) => v === value;
        } else if (s.filter === 'like') {
          const part = String(value).slice(1, 3) || String(value);
          q.set(s.field, part.toUpperCase());
          accept = (v) => String(v).toLowerCase().includes(part.toLowerCase());
        } else if (s.filter === 'in') {
          const other = all.map((r) => r[s.field]).find((v) => v != null && v !== value);
          q.append(s.field, String(value));
          if (other !== undefined) q.append(s.field, String(other));
          accept = (v) => v === value || v === other;
        } else {
          const [from, to] = filterParamNames(s);
          q.set(from, String(value));
          q.set(to, String(value));
          accept = (v) => v === value;
        }
        const r = await call(t, admin, 'GET', `${base}/page?pageSize=500&${q}`);
        expect(r.status, `${s.field} ${q}`).toBe(200);
        expect(r.data.rows.map((x: Body) => x.id)).toContain(sample!.id);
        for (const row of r.data.rows) expect(accept(row[s.field]), `${s.field}=${row[s.field]}`).toBe(true);
        expect(r.data.total).toBe(r.data.rows.length);
      }
      // A search form's empty fields mean "no filter".
      const emptyQuery = doc.searchable.map((s) => filterParamNames(s).map((p) => `${p}=`).join('&')).join('&');
      const r = await call(t, admin, 'GET', `${base}/page?pageSize=500&${emptyQuery}`);
      expect([r.status, r.data.total]).toEqual([200, all.length]);
    });

    it('creates, reads, updates and deletes a record, auditing each write with what changed', async (ctx) => {
      const refused = declaredRefusals(ctx, doc, 'write');
      const seed = await someRow(t, writer.token, doc);
      const body = variant(doc, seed, `契约-${doc.name}`);
      const created = await writeOrSkip(t, writer.token, doc, 'POST', base, body, refused);
      expect([created.http, created.status], created.raw.body).toEqual([200, 200]);
      const id = created.data.id as number;
      expect(created.data.version).toBe(1);
      expect(created.data[doc.displayField]).toEqual(body[doc.displayField]);
      expect(created.data.farmId).toBe(doc.scope === 'farm' ? farm1.orgId : null);
      expect(created.data.createdBy).toBe(writer.id);

      const [createLog] = await logRows(t, `${doc.name}.create`, id);
      expect(createLog.changes.fields[doc.displayField]).toEqual({ from: null, to: body[doc.displayField] });
      expect(createLog.changes.version).toEqual({ from: null, to: 1 });

      const got = await call(t, writer.token, 'GET', `${base}/${id}`);
      expect(got.data).toEqual(created.data);

      const changed = variant(doc, body, `改-${doc.name}`);
      const updated = await writeOrSkip(t, writer.token, doc, 'PUT', `${base}/${id}`, { ...changed, version: 1 }, refused);
      expect([updated.status, updated.data.version], updated.raw.body).toEqual([200, 2]);
      expect(updated.data[doc.displayField]).toEqual(changed[doc.displayField]);
      const [updateLog] = await logRows(t, `${doc.name}.update`, id);
      expect(updateLog.changes.version).toEqual({ from: 1, to: 2 });
      // The audit diff is what was stored before and after, property by property.
      const before = recordOf(doc, created.data);
      const after = recordOf(doc, updated.data);
      const expectedDiff = Object.fromEntries(
        [...new Set([...Object.keys(before), ...Object.keys(after)])]
          .filter((k) => !isDeepStrictEqual(before[k] ?? null, after[k] ?? null))
          .sort()
          .map((k) => [k, { from: before[k] ?? null, to: after[k] ?? null }]),
      );
      expect(Object.keys(expectedDiff)).toContain(doc.displayField);
      expect(updateLog.changes.fields).toEqual(expectedDiff);
      expect(updateLog.ip).toBeTruthy();

      // A form posting back the whole row it loaded (meta fields included) is accepted.
      const roundTrip = await writeOrSkip(t, writer.token, doc, 'PUT', `${base}/${id}`, { ...updated.data }, refused);
      expect([roundTrip.status, roundTrip.data.version], roundTrip.raw.body).toEqual([200, 3]);

      const stale = await call(t, writer.token, 'PUT', `${base}/${id}`, { ...changed, version: 2 }, 'en');
      expect([stale.http, stale.status]).toEqual([400, 40001]);
      expect(stale.message).toMatch(/modified by someone else/);
      expect(stale.data.errors).toEqual([{ field: 'version', message: stale.message }]);

      const removed = await call(t, writer.token, 'DELETE', `${base}/${id}`);
      expect([removed.status, removed.data]).toEqual([200, { deleted: 1 }]);
      const [deleteLog] = await logRows(t, `${doc.name}.delete`, id);
      expect(deleteLog.changes.fields[doc.displayField]).toEqual({ from: after[doc.displayField] ?? null, to: null });
      const gone = await call(t, writer.token, 'GET', `${base}/${id}`);
      expect([gone.http, gone.status]).toEqual([404, 40401]);
      const again = await call(t, writer.token, 'DELETE', `${base}/${id}`);
      expect([again.http, again.status]).toEqual([404, 40401]);
    });

    it('batch-deletes all or nothing', async (ctx) => {
      const refused = declaredRefusals(ctx, doc, 'write');
      const seed = await someRow(t, writer.token, doc);
      const ids: number[] = [];
      for (const n of [1, 2]) ids.push((await writeOrSkip(t, writer.token, doc, 'POST', base, variant(doc, seed, `批量-${n}`), refused)).data.id);
      const partial = await call(t, writer.token, 'DELETE', `${base}/batch`, { ids: [...ids, 2147483000] });
      expect([partial.http, partial.status]).toEqual([404, 40401]);
      for (const id of ids) expect((await call(t, writer.token, 'GET', `${base}/${id}`)).status).toBe(200);
      const done = await call(t, writer.token, 'DELETE', `${base}/batch`, { ids });
      expect([done.status, done.data]).toEqual([200, { deleted: 2 }]);
      for (const id of ids) {
        expect((await call(t, writer.token, 'GET', `${base}/${id}`)).status).toBe(40401);
        expect(await logRows(t, `${doc.name}.delete`, id)).toHaveLength(1);
      }
      const empty = await call(t, writer.token, 'DELETE', `${base}/batch`, { ids: [] });
      expect([empty.http, empty.status]).toEqual([400, 40001]);
    });

    it('refuses unknown properties by name, with field errors in zh, en and es', async () => {
      const seed = await someRow(t, writer.token, doc);
      const replies = [];
      for (const lang of ['zh', 'en', 'es']) {
        const r = await call(t, writer.token, 'POST', base, { ...variant(doc, seed, 'x'), bogusField: 1 }, lang);
        expect([r.http, r.status]).toEqual([400, 40001]);
        expect(r.data.errors).toHaveLength(1);
        expect(r.data.errors[0].field).toBe('bogusField');
        expect(r.message).toContain('bogusField');
        replies.push(r.data.errors[0].message);
      }
      expect(new Set(replies).size).toBe(3);
      const missing = await call(t, writer.token, 'POST', base, {}, 'en');
      // Fields only transitions write are not required in a write body (docs/resources.md, "States and transitions").
      const owned = new Set(transitionOwnedFields(doc));
      expect(missing.data.errors.map((e: { field: string }) => e.field).sort()).toEqual((doc.record.required ?? []).filter((f) => !owned.has(f)).sort());
    });

    it('bounds the page query: page size, page index, sort, unknown parameters', async () => {
      for (const [query, field] of [
        [`pageSize=${MAX_PAGE_SIZE + 1}`, 'pageSize'],
        ['pageSize=0', 'pageSize'],
        ['pageIndex=0', 'pageIndex'],
        ['pageIndex=abc', 'pageIndex'],
        ['sort=noSuchField', 'sort'],
        ['sort=-', 'sort'],
        ['sort=id;drop', 'sort'],
        ['unknownParam=1', 'unknownParam'],
      ]) {
        const r = await call(t, admin, 'GET', `${base}/page?${query}`);
        expect([r.http, r.status], query).toEqual([400, 40001]);
        expect(r.data.errors.map((e: { field: string }) => e.field), query).toContain(field);
      }
      expect((await call(t, admin, 'GET', `${base}/page?pageSize=${MAX_PAGE_SIZE}`)).status).toBe(200);
      const big = await call(t, admin, 'GET', `${base}/abc`);
      expect([big.http, big.status]).toEqual([400, 40001]);
    });
  });

  it('keeps an operation log readable page by page, filtered and scoped', async () => {
    const doc = docs.find((d) => d.name === 'crops')!;
    const seed = await someRow(t, admin, doc);
    const before = new Date(Date.now() - 1000).toISOString();
    const made = await call(t, admin, 'POST', doc.basePath, variant(doc, seed, '日志-管理员'));
    expect(made.status).toBe(200);
    const mine = await call(t, writer.token, 'POST', doc.basePath, variant(doc, seed, '日志-农场'));
    expect(mine.status).toBe(200);

    const r = await call(t, admin, 'GET', `/api/admin/gateLog/page?resource=${doc.name}&from=${encodeURIComponent(before)}&pageSize=50`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.data).sort()).toEqual(['pageIndex', 'pageSize', 'rows', 'total']);
    expect(r.data.rows.map((x: Body) => x.recordId)).toEqual(expect.arrayContaining([String(made.data.id), String(mine.data.id)]));
    for (const row of r.data.rows) expect(row.resource).toBe(doc.name);
    const byUser = await call(t, admin, 'GET', `/api/admin/gateLog/page?userId=${writer.id}&action=${doc.name}.create`);
    expect(byUser.data.rows.length).toBeGreaterThan(0);
    for (const row of byUser.data.rows) expect([row.userId, row.action]).toEqual([writer.id, `${doc.name}.create`]);
    const future = await call(t, admin, 'GET', `/api/admin/gateLog/page?from=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`);
    expect([future.status, future.data.total]).toEqual([200, 0]);
    const reversed = await call(t, admin, 'GET', `/api/admin/gateLog/page?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`);
    expect([reversed.http, reversed.status]).toEqual([400, 40001]);

    // A farm's reader sees its own people's actions, never the platform administrator's.
    const scoped = await call(t, writer.token, 'GET', `/api/admin/gateLog/page?resource=${doc.name}&pageSize=500`);
    expect(scoped.status).toBe(200);
    const ids = scoped.data.rows.map((x: Body) => x.recordId);
    expect(ids).toContain(String(mine.data.id));
    expect(ids).not.toContain(String(made.data.id));

    const farm = await t.login('farm');
    const refused = await call(t, farm, 'GET', '/api/admin/gateLog/page');
    expect([refused.http, refused.status]).toEqual([403, 40301]);
  });

  it('publishes an OpenAPI document of every resource endpoint, without a token', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(r.statusCode).toBe(200);
    const api = r.json();
    expect(api.openapi).toBe('3.1.0');
    expect(api.components.securitySchemes.token).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    for (const doc of docs) {
      const b = doc.basePath;
      expect(api.paths[`${b}/page`].get.parameters.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['pageIndex', 'pageSize', 'sort', ...doc.searchable.flatMap(filterParamNames)]),
      );
      expect(Object.keys(api.paths[`${b}/{id}`]).sort()).toEqual(['delete', 'get', 'put']);
      expect(api.paths[`${b}/batch`].delete).toBeDefined();
      const post = api.paths[b].post.requestBody.content['application/json'].schema;
      expect(Object.keys(post.properties)).toEqual(expect.arrayContaining(Object.keys(doc.record.properties)));
      expect(post.additionalProperties).toBe(false);
      const rows = api.paths[`${b}/page`].get.responses['200'].content['application/json'].schema.properties.data.properties.rows;
      expect(Object.keys(rows.items.properties)).toEqual(expect.arrayContaining(['id', 'version', ...Object.keys(doc.record.properties)]));
    }
    expect(api.paths['/api/admin/gateLog/page'].get).toBeDefined();
    expect(api.paths['/api/openapi.json']).toBeUndefined();
    const login = api.paths['/api/auth/jwt/token']?.post;
    if (login) expect(login.security).toEqual([]);
  });
});
