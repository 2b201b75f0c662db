/**
 * The screen-language extensions of issue 6, as data and pure functions: tree tables,
 * checkbox trees, plucked fields, prompts, public screens, forms with their own record
 * schema, option endpoints, endpoint query parameters, filter parameter names, and the
 * rules schemas:check applies to each.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import { buildRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import { validateScreenDocument } from '../../runtime/schema/validate.ts';
import { pluck } from '../../runtime/schema/values.ts';
import { productProfile } from '../../product/profile.ts';
import type { TreeSource } from '../../runtime/schema/screen.ts';
import { flattenTree } from '../../runtime/screens/tree-rows.ts';
import { splitKeys, toggleKey, treeNodes } from '../../runtime/screens/fields/tree-keys.ts';
import { filterQuery, filterSpec } from '../../runtime/screens/filters.ts';
import { optionsFromReply } from '../../runtime/screens/options.ts';
import { editorValue } from '../../runtime/screens/fields/RichTextWidget.tsx';
import { formatScalar, htmlText } from '../../runtime/screens/format.tsx';

const ROOT = resolve(import.meta.dirname, '../..');
const T = (zh: string) => ({ zh, en: zh, es: zh });
const key = (r: Record<string, unknown>) => String(r.id);

describe('tree tables', () => {
  const nested = [
    { id: 1, name: 'a', children: [{ id: 2, name: 'a1', children: [] }, { id: 3, name: 'a2' }] },
    { id: 4, name: 'b', children: [] },
  ];

  it('flattens nested rows in order with their depth, and hides the children of a collapsed row', () => {
    const open = flattenTree(nested, { children: 'children' }, key, new Set());
    expect(open.rows.map(key)).toEqual(['1', '2', '3', '4']);
    expect(open.info.get('2')).toEqual({ depth: 1, hasChildren: false });
    expect(open.info.get('1')).toEqual({ depth: 0, hasChildren: true });
    expect(open.branches).toEqual(['1']);
    expect(flattenTree(nested, {}, key, new Set(['1'])).rows.map(key)).toEqual(['1', '4']);
  });

  it('assembles flat rows under their parent; an unknown parent or a cycle does not lose or repeat rows', () => {
    const flat = [
      { id: 5, parentId: 4 },
      { id: 4, parentId: null },
      { id: 6, parentId: 99 },
      { id: 7, parentId: 8 },
      { id: 8, parentId: 7 },
    ];
    const out = flattenTree(flat, { parentField: 'parentId' }, key, new Set());
    expect(out.rows.map(key)).toEqual(['4', '5', '6', '7', '8']);
    expect(out.info.get('5')?.depth).toBe(1);
    expect(out.info.get('8')?.depth).toBe(1);
  });
});

describe('checkbox trees', () => {
  const source: TreeSource = { endpoint: { path: '/api/x' }, rows: 'tree', key: 'code', label: 'title', children: 'children', leaves: 'elements', leafField: 'elements' };
  const data = {
    tree: [
      {
        code: 'baseManager',
        title: { zh: '系统管理', en: 'System', es: 'Sistema' },
        elements: [],
        children: [
          { code: 'dictManager', title: { zh: '数据字典', en: 'Dictionaries', es: 'Diccionarios' }, elements: [{ code: 'dictManager:add', title: T('新增') }], children: [] },
          { code: 'userManager', title: T('用户'), elements: [{ code: 'userManager:edit', title: T('编辑') }] },
        ],
      },
    ],
  };

  it('reads nodes from a reply, labels in the language, leaves under their node', () => {
    const nodes = treeNodes(data, source, 'en');
    expect(nodes[0].title).toBe('System');
    expect(nodes[0].children.map((n) => n.key)).toEqual(['dictManager', 'userManager']);
    expect(nodes[0].children[0].children).toEqual([{ key: 'dictManager:add', title: '新增', leaf: true, children: [] }]);
  });

  it('checking a node checks its ancestors; unchecking one unchecks everything below it', () => {
    const nodes = treeNodes(data, source, 'zh');
    const checked = toggleKey(nodes, [], 'dictManager:add', true);
    expect(new Set(checked)).toEqual(new Set(['dictManager:add', 'dictManager', 'baseManager']));
    expect(splitKeys(nodes, checked)).toEqual({ own: ['baseManager', 'dictManager'], leaves: ['dictManager:add'] });
    const more = toggleKey(nodes, checked, 'userManager', true);
    expect(splitKeys(nodes, toggleKey(nodes, more, 'dictManager', false))).toEqual({ own: ['baseManager', 'userManager'], leaves: [] });
    expect(toggleKey(nodes, more, 'baseManager', false)).toEqual([]);
  });
});

describe('values, options and filters', () => {
  it('plucks through arrays: roles.id, items.label', () => {
    const user = { roles: [{ id: 1, name: T('甲') }, { id: 3 }], nested: { list: [{ v: [1, 2] }] } };
    expect(pluck(user, 'roles.id')).toEqual([1, 3]);
    expect(pluck(user, 'roles.name')).toEqual([T('甲')]);
    expect(pluck(user, 'roles.0.id')).toBe(1);
    expect(pluck(user, 'missing.x')).toBeUndefined();
    expect(pluck({ a: 1 }, 'constructor')).toBeUndefined();
  });

  it('reads options from an array, a page, or the array at a path; text labels in the language', () => {
    const items = [{ value: 'flood', label: { zh: '漫灌', en: 'Flood', es: 'Inundación' }, color: 'blue' }];
    expect(optionsFromReply(items, {}, 'es')).toEqual([{ value: 'flood', label: 'Inundación', color: 'blue' }]);
    expect(optionsFromReply({ rows: [{ id: 2, name: '禾丰' }], total: 1 }, { valueField: 'id', labelField: 'name' }, 'zh')).toEqual([{ value: 2, label: '禾丰' }]);
    expect(optionsFromReply({ tree: [{ id: 9, title: T('菜单') }] }, { rows: 'tree', valueField: 'id', labelField: 'title' }, 'zh')).toEqual([{ value: 9, label: '菜单' }]);
    expect(optionsFromReply(null, {}, 'zh')).toEqual([]);
  });

  it('a two-value filter with paramNames sends those names (the operation log\'s from / to)', () => {
    const spec = filterSpec({ field: 'at', widget: 'datetimeRange', paramNames: { from: 'from', to: 'to' } }, undefined);
    const q = filterQuery([spec], { at: [new Date('2026-01-01T00:00:00Z'), undefined] as unknown });
    expect(Object.keys(q)).toEqual(['from']);
    const plain = filterSpec({ field: 'versionCode', op: 'range' }, undefined);
    expect(filterQuery([plain], { versionCode: [3, 9] })).toEqual({ versionCodeFrom: 3, versionCodeTo: 9 });
  });

  it('shows texts in the language and HTML as its text', () => {
    expect(formatScalar({ zh: '名称', en: 'Name', es: 'Nombre' }, { lang: 'en' }, null, ['Y', 'N'])).toBe('Name');
    expect(formatScalar([T('甲'), T('乙')], { lang: 'zh' }, null, ['Y', 'N'])).toBe('甲, 乙');
    expect(htmlText('<p>一 <b>二</b></p><script>x()</script>')).not.toContain('<');
    expect(editorValue('<p><br></p>')).toBeUndefined();
    expect(editorValue('<p>x</p>')).toBe('<p>x</p>');
  });
});

/** The repository's documents plus `extra` screens, checked as the console and schemas:check do. */
function check(extra: Record<string, unknown>[], served?: 'resources-only') {
  const repo = (folderSource(ROOT).documents() as SourceDocument[]).map((d) => ({ ...d, source: 'bundled' }));
  const docs = extra.map((content, i) => ({ file: `test/${i}.json`, type: 'screen' as const, content, source: 'test' }));
  const reg = buildRegistry([...repo, ...docs], { served, publicPaths: productProfile });
  return reg.problems.filter((p) => p.file.startsWith('test/')).map((p) => `${p.severity} ${p.pointer} ${p.message}`);
}

const frame = { $schema: 'x', formatVersion: 1, revision: 1, title: T('测试') };

describe('rules of the extensions', () => {
  it('the repository holds no error (literal endpoints trusted at run time)', () => {
    const repo = (folderSource(ROOT).documents() as SourceDocument[]).map((d) => ({ ...d, source: 'bundled' }));
    expect(buildRegistry(repo).errors).toEqual([]);
  });

  it('a public screen must sit on a public path of the access rules', () => {
    const table = { ...frame, kind: 'table', authority: 'articleManageIndex', public: true, endpoint: { path: '/api/articles/public/search' }, columns: [{ field: 'title', title: T('标题') }] };
    expect(check([{ ...table, id: 'pubOk', route: '/searchArticleBeforeLogin/x/:keyword' }])).toEqual([]);
    expect(check([{ ...table, id: 'pubBad', route: '/news/:keyword' }]).join('\n')).toMatch(/\/route "\/news\/:keyword" is not a public path/);
  });

  it('a form needs a resource or its own record; a record form needs endpoints; fields belong to the record', () => {
    const form = { ...frame, kind: 'form', authority: 'userManager', sections: [{ fields: [{ field: 'name' }] }] };
    expect(validateScreenDocument({ ...form, id: 'f1' }, 'f1.json').problems.map((p) => p.message).join()).toMatch(/record/);
    const record = { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } };
    expect(check([{ ...form, id: 'f2', record }]).join('\n')).toMatch(/\/endpoints a form without a resource needs endpoints.create or endpoints.update/);
    const ok = { ...form, id: 'f3', record, endpoints: { create: { path: '/api/admin/role', method: 'POST' } } };
    expect(check([ok])).toEqual([]);
    expect(check([{ ...ok, id: 'f4', sections: [{ fields: [{ field: 'nope' }] }] }]).join('\n')).toMatch(/"nope" is not a property of the form's record/);
  });

  it('a checkbox tree needs its tree, a list field and its leaf field on the form', () => {
    const base = {
      ...frame,
      kind: 'form',
      authority: 'groupManager',
      record: { type: 'object', properties: { menus: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 9 } }, elements: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 9 } } } },
      endpoints: { update: { path: '/api/admin/role/:id/permissions', method: 'PUT', params: { id: 'route.id' } } },
    };
    const tree = { endpoint: { path: '/api/admin/role/:id/permissions', params: { id: 'route.id' } }, leaves: 'elements', leafField: 'elements' };
    expect(validateScreenDocument({ ...base, id: 't1', sections: [{ fields: [{ field: 'menus', widget: 'checkboxTree' }] }] }, 't1.json').problems.map((p) => p.message).join()).toMatch(/tree/);
    expect(check([{ ...base, id: 't2', sections: [{ fields: [{ field: 'menus', widget: 'checkboxTree', tree }] }] }]).join('\n')).toMatch(/"elements" is not a field of this form/);
    expect(check([{ ...base, id: 't3', sections: [{ fields: [{ field: 'menus', widget: 'checkboxTree', tree }, { field: 'elements', widget: 'hidden' }] }] }])).toEqual([]);
  });

  it('prompts, query parameters and tree tables are checked', () => {
    const table = { ...frame, kind: 'table', authority: 'userManager', route: '/baseManager/zzTest', endpoint: { path: '/api/admin/user/page' }, columns: [{ field: 'name', title: T('名') }] };
    const call = (extra: Record<string, unknown>) => ({ kind: 'call', label: T('改'), endpoint: { path: '/api/admin/user/updateUserStatus', method: 'PUT', query: { id: 'row.id' } }, ...extra });
    expect(check([{ ...table, id: 'p1', rowActions: [call({ prompt: { field: 'reason', label: T('原因') } })] }])).toEqual([]);
    expect(check([{ ...table, id: 'p2', rowActions: [call({ body: { reason: 'row.name' }, prompt: { field: 'reason', label: T('原因') } })] }]).join('\n')).toMatch(/prompt would overwrite/);
    expect(check([{ ...table, id: 'p3', rowActions: [call({ prompt: { field: 'x', label: T('x'), pattern: '(' } })] }]).join('\n')).toMatch(/not a valid regular expression/);
    expect(check([{ ...table, id: 'p4', toolbar: [call({})] }]).join('\n')).toMatch(/reads row, which is not available here/);
    expect(check([{ ...table, id: 'p5', tree: { children: 'children', parentField: 'parentId' } }]).join('\n')).toMatch(/either children .* or parentField/);
  });

  it('without the server, schemas:check reports literal endpoints no resource serves', () => {
    const table = { ...frame, id: 'e1', kind: 'table', authority: 'userManager', endpoint: { path: '/api/nowhere' }, columns: [{ field: 'x', title: T('x') }] };
    expect(check([table])).toEqual([]);
    expect(check([table], 'resources-only').join('\n')).toMatch(/GET \/api\/nowhere is served by no resource/);
  });
});
