/**
 * `npm run schemas:new -- <name> [--authority <menuCode>] [--scope farm|group|platform]`
 * scaffolds a resource document and its list, form and detail screens:
 *
 *   schemas/resources/<name>.json
 *   schemas/screens/<section>/<name>Manager.json   table at the menu entry's route
 *   schemas/screens/<section>/<name>Form.json      add / edit / show form, opened in a drawer
 *   schemas/screens/<section>/<name>Detail.json    detail at /<section>/<name>Detail/:id
 *
 * The authority (default: <name>) must be a menu code of schemas/menus.json; its menu
 * entry gives the route and the titles, and its element codes gate the actions. The
 * record starts with name, status and remark; the set is checked before anything is
 * written, and nothing is overwritten.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { entryPath, type MenuChild, type MenuDocument, type MenuSection } from '../runtime/schema/menus.ts';
import { folderSource } from '../runtime/schema/folder-source.ts';
import { buildRegistry, formatProblems, type SourceDocument } from '../runtime/schema/registry.ts';
import type { ResourceScope } from '../runtime/schema/resource.ts';
import type { I18nText } from '../runtime/schema/texts.ts';
import { REPO_ROOT } from './schemas-check.ts';

export interface ScaffoldOptions {
  root?: string;
  name: string;
  authority?: string;
  scope?: ResourceScope;
}

export class ScaffoldError extends Error {}

const T = (zh: string, en: string, es: string): I18nText => ({ zh, en, es });

function findEntry(menus: MenuDocument, code: string): { section: MenuSection; child: MenuChild } | null {
  for (const section of menus.menus) {
    const child = section.children.find((c) => c.code === code);
    if (child) return { section, child };
  }
  return null;
}

/** The documents for `name`, as file → JSON, without writing them. */
export function scaffoldDocuments(opts: ScaffoldOptions): Record<string, unknown> {
  const root = opts.root ?? REPO_ROOT;
  const { name } = opts;
  if (!/^[a-z][A-Za-z0-9]{1,39}$/.test(name)) throw new ScaffoldError(`"${name}" is not a resource name: a lower-case letter, then 1-39 letters or digits (e.g. greenhouseGroup)`);
  const authority = opts.authority ?? name;
  const scope = opts.scope ?? 'farm';
  if (!['farm', 'group', 'platform'].includes(scope)) throw new ScaffoldError(`scope "${scope}" is not farm, group or platform`);
  const menus = JSON.parse(readFileSync(join(root, 'schemas/menus.json'), 'utf8')) as MenuDocument;
  const found = findEntry(menus, authority);
  if (!found) throw new ScaffoldError(`"${authority}" is not the code of a menu entry (a child of a section) in schemas/menus.json; pass --authority <menuCode>`);
  const { section, child } = found;
  const elements = new Set((child.elements ?? []).map((e) => e.code));
  for (const action of ['add', 'edit', 'delete']) {
    if (!elements.has(`${authority}:${action}`)) throw new ScaffoldError(`menu entry "${authority}" has no element code "${authority}:${action}"; add it to schemas/menus.json first`);
  }
  const has = (action: string) => elements.has(`${authority}:${action}`);
  const sectionPath = entryPath(section);
  const title = child.title;
  const screensDir = `schemas/screens/${sectionPath}`;
  const schemaRef = (file: string, meta: string) => posix.relative(posix.dirname(file), meta);
  const files: Record<string, unknown> = {};

  const resourceFile = `schemas/resources/${name}.json`;
  const statusOptions = [
    { value: 1, label: T('启用', 'Enabled', 'Activado'), color: 'green' },
    { value: 0, label: T('停用', 'Disabled', 'Desactivado'), color: 'default' },
  ];
  files[resourceFile] = {
    $schema: schemaRef(resourceFile, 'runtime/schema/resource.schema.json'),
    name,
    formatVersion: 1,
    revision: 1,
    title,
    basePath: `/api/${sectionPath}/${name}`,
    authority,
    elements: { create: `${authority}:add`, update: `${authority}:edit`, delete: `${authority}:delete` },
    scope,
    record: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'status'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 100, 'x-title': T('名称', 'Name', 'Nombre') },
        status: {
          type: 'integer',
          minimum: 0,
          maximum: 1,
          enum: [0, 1],
          'x-enumTitles': [T('停用', 'Disabled', 'Desactivado'), T('启用', 'Enabled', 'Activado')],
          'x-title': T('状态', 'Status', 'Estado'),
        },
        remark: { type: 'string', maxLength: 1000, 'x-title': T('备注', 'Remarks', 'Observaciones') },
      },
    },
    displayField: 'name',
    defaultSort: 'name',
    searchable: [
      { field: 'name', filter: 'like' },
      { field: 'status', filter: 'eq' },
    ],
    sortable: ['name'],
  };

  const screen = (file: string, doc: Record<string, unknown>) => {
    files[file] = { $schema: schemaRef(file, 'runtime/schema/screen.schema.json'), formatVersion: 1, revision: 1, ...doc };
  };
  const formId = `${name}Form`;
  const detailRoute = `/${sectionPath}/${name}Detail/:id`;
  screen(`${screensDir}/${name}Manager.json`, {
    id: `${name}Manager`,
    kind: 'table',
    title,
    route: `/${sectionPath}/${entryPath(child)}`,
    authority,
    ...(child.icon ? { icon: child.icon } : {}),
    resource: name,
    columns: [
      { field: 'name', sortable: true, render: 'link', link: { to: detailRoute, params: { id: 'row.id' } } },
      { field: 'status', render: 'tag', options: statusOptions },
      { field: 'remark', ellipsis: true },
      { field: 'updatedAt', title: T('更新时间', 'Updated', 'Actualizado'), render: 'datetime', sortable: true },
    ],
    filters: [{ field: 'name' }, { field: 'status', widget: 'select', options: statusOptions }],
    toolbar: [
      { kind: 'openForm', label: T('新增', 'Add', 'Añadir'), icon: 'PlusOutlined', primary: true, elementCode: ':add', screen: formId, mode: 'add' },
      ...(has('export') ? [{ kind: 'export', label: T('导出', 'Export', 'Exportar'), icon: 'DownloadOutlined', elementCode: ':export', formats: ['xlsx', 'csv'] }] : []),
    ],
    rowActions: [
      { kind: 'navigate', label: T('详情', 'Details', 'Detalles'), icon: 'EyeOutlined', ...(has('view') ? { elementCode: ':view' } : {}), to: detailRoute, params: { id: 'row.id' } },
      { kind: 'openForm', label: T('编辑', 'Edit', 'Editar'), icon: 'EditOutlined', elementCode: ':edit', screen: formId, mode: 'edit', params: { id: 'row.id' } },
      {
        kind: 'call',
        label: T('删除', 'Delete', 'Eliminar'),
        icon: 'DeleteOutlined',
        danger: true,
        elementCode: ':delete',
        endpoint: { operation: 'delete', params: { id: 'row.id' } },
        confirm: T('确定删除「{name}」吗？', 'Delete "{name}"?', '¿Eliminar «{name}»?'),
      },
    ],
    batchActions: [
      {
        kind: 'call',
        label: T('批量删除', 'Delete selected', 'Eliminar seleccionados'),
        danger: true,
        elementCode: ':delete',
        endpoint: { operation: 'batchDelete' },
        body: { ids: 'selection.id' },
        confirm: T('确定删除选中的记录吗？', 'Delete the selected records?', '¿Eliminar los registros seleccionados?'),
      },
    ],
    pageSize: 20,
  });
  screen(`${screensDir}/${formId}.json`, {
    id: formId,
    kind: 'form',
    title,
    authority,
    resource: name,
    sections: [{ columns: 2, fields: [{ field: 'name' }, { field: 'status', widget: 'radio', options: statusOptions }, { field: 'remark', widget: 'textarea', span: 2 }] }],
  });
  screen(`${screensDir}/${name}Detail.json`, {
    id: `${name}Detail`,
    kind: 'detail',
    title,
    route: detailRoute,
    authority,
    hidden: true,
    resource: name,
    sections: [
      {
        columns: 2,
        fields: [
          { field: 'name' },
          { field: 'status', render: 'tag', options: statusOptions },
          { field: 'remark', span: 2 },
          { field: 'createdAt', title: T('创建时间', 'Created', 'Creado'), render: 'datetime' },
          { field: 'updatedAt', title: T('更新时间', 'Updated', 'Actualizado'), render: 'datetime' },
        ],
      },
    ],
    actions: [{ kind: 'openForm', label: T('编辑', 'Edit', 'Editar'), icon: 'EditOutlined', elementCode: ':edit', screen: formId, mode: 'edit', params: { id: 'record.id' } }],
  });
  return files;
}

/** Checks the new documents together with the existing ones, then writes them; returns the files written. */
export function scaffold(opts: ScaffoldOptions): string[] {
  const root = opts.root ?? REPO_ROOT;
  const files = scaffoldDocuments(opts);
  const taken = Object.keys(files).filter((f) => existsSync(join(root, f)));
  if (taken.length) throw new ScaffoldError(`would overwrite ${taken.join(', ')}`);
  const existing = (folderSource(root).documents() as SourceDocument[]).map((d) => ({ ...d, source: 'bundled' }));
  const added = Object.entries(files).map(([file, content]) => ({
    file,
    type: file.startsWith('schemas/resources/') ? ('resource' as const) : ('screen' as const),
    content,
    source: 'bundled',
  }));
  const reg = buildRegistry([...existing, ...added]);
  const mine = reg.errors.filter((p) => p.file in files);
  if (mine.length) throw new ScaffoldError(`the scaffold would be invalid:\n${formatProblems(mine)}`);
  for (const [file, doc] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), `${JSON.stringify(doc, null, 2)}\n`);
  }
  return Object.keys(files);
}

function main() {
  const args = process.argv.slice(2);
  const opt = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const name = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
  if (!name) {
    console.error('usage: npm run schemas:new -- <name> [--authority <menuCode>] [--scope farm|group|platform] [--root <dir>]');
    process.exitCode = 2;
    return;
  }
  try {
    const root = opt('--root') ? resolve(opt('--root')!) : REPO_ROOT;
    const written = scaffold({ root, name, authority: opt('--authority'), scope: opt('--scope') as ResourceScope | undefined });
    console.log(`created:\n${written.map((f) => `  ${f}`).join('\n')}\nnext: add fields to the resource's record, then npm run schemas:check`);
  } catch (err) {
    console.error(err instanceof ScaffoldError ? `schemas:new: ${err.message}` : err);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
