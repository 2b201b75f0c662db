import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { allCodes, call, demoOrg, docs, makeUser, someRow, variant, writeOrSkip, declaredRefusals } from './resource-fixtures.ts';

const byName = (list: ResourceDocument[]) => list.map((d) => [d.name, d] as const);

describe.each(engines())('concurrent writers of one record on $name', (engine) => {
  let t: TestApp;
  let writer: string;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const farm1 = await demoOrg(t.db, 'farm');
    writer = (await makeUser(t, { orgId: farm1.orgId, ...allCodes() })).token;
    other = (await makeUser(t, { orgId: farm1.orgId, ...allCodes() })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe.each(byName(docs))('%s', (_name, doc) => {
    it('lets exactly one of two updates on the same version win; the other is told to reload', async (ctx) => {
      const refused = declaredRefusals(ctx, doc, 'write');
      const seed = await someRow(t, writer, doc);
      const made = await writeOrSkip(t, writer, doc, 'POST', doc.basePath, variant(doc, seed, '并发'), refused);
      expect(made.status).toBe(200);
      const id = made.data.id as number;
      const a = variant(doc, made.data, '甲的修改');
      const b = variant(doc, made.data, '乙的修改');
      const replies = await Promise.all([
        call(t, writer, 'PUT', `${doc.basePath}/${id}`, { ...a, version: 1 }, 'en'),
        call(t, other, 'PUT', `${doc.basePath}/${id}`, { ...b, version: 1 }, 'en'),
      ]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 40001]);
      const winner = replies.find((r) => r.status === 200)!;
      const loser = replies.find((r) => r.status === 40001)!;
      expect(loser.message).toMatch(/modified by someone else; reload/);
      const now = await call(t, writer, 'GET', `${doc.basePath}/${id}`);
      expect(now.data.version).toBe(2);
      expect(now.data[doc.displayField]).toBe(winner.data[doc.displayField]);
      const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operation_log WHERE action = $1 AND record_id = $2`, [
        `${doc.name}.update`,
        String(id),
      ]);
      expect(rows[0].n).toBe(1);
    });

    it('serialises a crowd: of eight updates on one version exactly one lands, and no version is skipped', async (ctx) => {
      const refused = declaredRefusals(ctx, doc, 'write');
      const seed = await someRow(t, writer, doc);
      const made = await writeOrSkip(t, writer, doc, 'POST', doc.basePath, variant(doc, seed, '人群'), refused);
      const id = made.data.id as number;
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call(t, i % 2 ? writer : other, 'PUT', `${doc.basePath}/${id}`, { ...variant(doc, made.data, `第${i}个`), version: 1 })),
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      expect(replies.filter((r) => r.status === 40001)).toHaveLength(7);
      // An update racing a delete: either the update lands first and the delete still
      // removes the record, or the delete wins and the update finds nothing (40401).
      const [upd, del] = await Promise.all([
        call(t, writer, 'PUT', `${doc.basePath}/${id}`, { ...variant(doc, made.data, '最后'), version: 2 }),
        call(t, other, 'DELETE', `${doc.basePath}/${id}`),
      ]);
      expect(del.status).toBe(200);
      expect([200, 40401]).toContain(upd.status);
      expect((await call(t, writer, 'GET', `${doc.basePath}/${id}`)).status).toBe(40401);
    });
  });
});
