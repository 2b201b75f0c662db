import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { readResourceDocuments } from '../../server/resources/load.ts';
import { readMenusFile } from '../../server/seed/menus.ts';
import { elementCodes, menuCodes } from '../../runtime/schema/menus.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { servesOperation } from '../../runtime/protocol/operations.ts';

interface Grant {
  menu: string;
  element?: string;
  kind: string;
}

/**
 * Issue 11 item 6: for every resource operation, the OpenAPI document names exactly the
 * grants the engine's guard accepts. Each listed grant alone must pass the guard; holding
 * every other code of the menu tree must not.
 */
describe.each(engines())('OpenAPI authorities of resource operations on $name', (engine) => {
  let t: TestApp;
  let token = '';
  let openapi: { paths: Record<string, Record<string, { description?: string; 'x-authorities'?: { anyOf: Grant[] } }>> };
  let docs: ResourceDocument[];
  let allMenus: string[];
  let allElements: string[];

  beforeAll(async () => {
    t = await createTestApp(engine);
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO users(username, name, password_hash, org_id)
       SELECT 'probe', 'Probe', 'x', org_id FROM users WHERE username = 'farm' RETURNING id`,
    );
    await t.db.query(`INSERT INTO roles(code, name, menus, elements) VALUES ('probe', '{"zh":"探","en":"Probe","es":"Sonda"}', '{}', '{}')`);
    await t.db.query(`INSERT INTO user_roles(user_id, role_id) SELECT $1, id FROM roles WHERE code = 'probe'`, [rows[0].id]);
    token = await t.app.tokens.issue({ id: rows[0].id, username: 'probe' });
    openapi = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    docs = await readResourceDocuments();
    const menus = await readMenusFile();
    allMenus = menuCodes(menus);
    allElements = elementCodes(menus);
  });
  afterAll(() => t?.close());

  const hold = (menus: readonly string[], elements: readonly string[]) =>
    t.db.query(`UPDATE roles SET menus = $1, elements = $2 WHERE code = 'probe'`, [menus, elements]);

  const operations = (doc: ResourceDocument) => {
    const b = doc.basePath;
    const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => async () => {
      const res = await t.app.inject({ method, url, payload, headers: { authorization: token } });
      return res.json().status as number;
    };
    const plain = [
      { op: 'page', path: `${b}/page`, method: 'get', action: 'read', call: send('GET', `${b}/page`) },
      { op: 'read', path: `${b}/{id}`, method: 'get', action: 'read', call: send('GET', `${b}/999999`) },
      { op: 'create', path: b, method: 'post', action: 'create', call: send('POST', b, {}) },
      // The import creates records: the create's grants (docs/import.md).
      { op: 'create', path: `${b}/import`, method: 'post', action: 'create', call: send('POST', `${b}/import`, {}) },
      { op: 'update', path: `${b}/{id}`, method: 'put', action: 'update', call: send('PUT', `${b}/999999`, {}) },
      { op: 'batchDelete', path: `${b}/batch`, method: 'delete', action: 'delete', call: send('DELETE', `${b}/batch`, {}) },
      { op: 'delete', path: `${b}/{id}`, method: 'delete', action: 'delete', call: send('DELETE', `${b}/999999`) },
    ] as const;
    return [
      // Only the operations the document serves (docs/resources.md, "Serving fewer operations").
      ...plain.filter((p) => servesOperation(doc, p.op)),
      // Each declared transition is an operation of its own, guarded by its element code,
      // and so is its legacy path when it declares one.
      ...Object.entries(doc.transitions ?? {}).flatMap(([name, tr]) => [
        { path: `${b}/{id}/transitions/${name}`, method: 'post', action: name, call: send('POST', `${b}/999999/transitions/${name}`, {}) },
        ...(tr.path
          ? [{ path: `${b}/{id}/${tr.path.segment}`, method: tr.path.method.toLowerCase(), action: name, call: send(tr.path.method, `${b}/999999/${tr.path.segment}`, {}) }]
          : []),
      ]),
    ];
  };

  it('lists, for every operation, each grant the guard accepts and none that it refuses', { timeout: 240_000 }, async () => {
    expect(docs.length).toBeGreaterThan(5);
    let checked = 0;
    for (const doc of docs) {
      for (const op of operations(doc)) {
        const where = `${op.method.toUpperCase()} ${op.path}`;
        const described = openapi.paths[op.path]?.[op.method];
        const grants = described?.['x-authorities']?.anyOf;
        expect(grants, where).toBeDefined();
        // The codes docs/resources.md promises: the authority, its aliases, and for reads the read-only grants.
        const menus = [doc.authority, ...(doc.authorityAliases ?? []), ...(op.action === 'read' ? (doc.readAuthorities ?? []) : [])];
        expect(grants!.map((g) => g.menu).sort(), where).toEqual([...new Set(menus)].sort());
        for (const g of grants!) {
          expect(described!.description, where).toContain(g.menu);
          if (g.element) expect(described!.description, where).toContain(g.element);
          expect(op.action === 'read' ? g.element : g.element?.startsWith(`${g.menu}:`), where).toBe(op.action === 'read' ? undefined : true);
          // This grant alone passes the guard.
          await hold([g.menu], g.element ? [g.element] : []);
          expect(await op.call(), `${where} with ${JSON.stringify(g)}`).not.toBe(40301);
          checked++;
        }
        // Every other menu code of the tree (with every element code) does not.
        const listedMenus = new Set(grants!.map((g) => g.menu));
        await hold(allMenus.filter((m) => !listedMenus.has(m)), allElements);
        expect(await op.call(), `${where} without its menu codes`).toBe(40301);
        if (op.action !== 'read') {
          // Nor do the listed menu codes with every element code but the listed ones.
          const listedElements = new Set(grants!.map((g) => g.element));
          await hold(allMenus, allElements.filter((e) => !listedElements.has(e)));
          expect(await op.call(), `${where} without its element codes`).toBe(40301);
        }
      }
    }
    expect(checked).toBeGreaterThan(docs.length * 6);
  });
});
