/**
 * Generated documents and rows for the screen-runtime benchmark: a resource with many
 * properties, a table screen over it, a form of 200 fields, and a menu tree with 1,000
 * entries with one screen each. Deterministic, so runs compare.
 */
import type { MenuDocument } from '../../../runtime/schema/menus.ts';
import type { ResourceDocument, FieldSchema } from '../../../runtime/schema/resource.ts';
import type { FormScreen, Screen, TableScreen } from '../../../runtime/schema/screen.ts';

const t = (s: string) => ({ zh: s, en: s, es: s });

export function wideResource(fields: number): ResourceDocument {
  const properties: Record<string, FieldSchema> = {};
  for (let i = 0; i < fields; i++) {
    const kind = i % 5;
    properties[`f${i}`] =
      kind === 0
        ? { type: 'string', 'x-title': t(`文本 ${i}`), maxLength: 100 }
        : kind === 1
          ? { type: 'integer', 'x-title': t(`整数 ${i}`), minimum: 0, maximum: 100000 }
          : kind === 2
            ? { type: 'string', 'x-title': t(`状态 ${i}`), enum: ['a', 'b', 'c'], maxLength: 1, 'x-enumTitles': [t('甲'), t('乙'), t('丙')] }
            : kind === 3
              ? { type: 'number', 'x-title': t(`数值 ${i}`), minimum: 0, maximum: 1000 }
              : { type: 'string', format: 'date', maxLength: 10, 'x-title': t(`日期 ${i}`) };
  }
  return {
    name: `bench${fields}`,
    formatVersion: 1,
    revision: 1,
    title: t(`Bench ${fields}`),
    basePath: `/api/bench/r${fields}`,
    authority: 'bench',
    elements: { create: 'bench:add', update: 'bench:edit', delete: 'bench:delete' },
    scope: 'platform',
    record: { type: 'object', additionalProperties: false, required: ['f0', 'f1'], properties },
    displayField: 'f0',
    defaultSort: 'id',
    searchable: [{ field: 'f0', filter: 'like' }],
    sortable: ['f0', 'f1'],
  };
}

export function rows(count: number, fields: number, page = 1): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = new Array(count);
  for (let r = 0; r < count; r++) {
    const id = (page - 1) * count + r + 1;
    const row: Record<string, unknown> = { id, version: 1 };
    for (let i = 0; i < fields; i++) {
      const kind = i % 5;
      row[`f${i}`] = kind === 0 ? `行 ${id} 列 ${i}` : kind === 1 ? (id * 31 + i) % 100000 : kind === 2 ? ['a', 'b', 'c'][(id + i) % 3] : kind === 3 ? ((id * 7 + i) % 1000) / 3 : `2026-0${1 + ((id + i) % 9)}-1${(id + i) % 9}`;
    }
    out[r] = row;
  }
  return out;
}

export function wideTable(doc: ResourceDocument, fields: number): TableScreen {
  return {
    $schema: 'https://farm-backoffice.local/schema/screen.schema.json',
    formatVersion: 1,
    revision: 1,
    id: 'benchTable',
    kind: 'table',
    title: t('Bench table'),
    authority: 'bench',
    resource: doc.name,
    columns: Array.from({ length: fields }, (_, i) => ({
      field: `f${i}`,
      render: i % 5 === 2 ? ('tag' as const) : i % 5 === 3 ? ('number' as const) : i % 5 === 4 ? ('date' as const) : ('text' as const),
      precision: i % 5 === 3 ? 1 : undefined,
      width: 120,
      sortable: i < 2,
    })),
    rowActions: [{ kind: 'navigate', label: t('详情'), to: '/bench/detail/:id', params: { id: 'row.id' } }],
    batchActions: [{ kind: 'call', label: t('删除'), endpoint: { operation: 'batchDelete' }, body: { ids: 'selection.id' } }],
    selection: 'multiple',
    pageSize: 10000,
  };
}

export function bigForm(doc: ResourceDocument, fields: number): FormScreen {
  const sections = [];
  for (let s = 0; s < fields / 20; s++)
    sections.push({ title: t(`分组 ${s + 1}`), columns: 4, fields: Array.from({ length: 20 }, (_, k) => ({ field: `f${s * 20 + k}` })) });
  return {
    $schema: 'https://farm-backoffice.local/schema/screen.schema.json',
    formatVersion: 1,
    revision: 1,
    id: 'benchForm',
    kind: 'form',
    title: t('Bench form'),
    authority: 'bench',
    resource: doc.name,
    sections,
  };
}

/** `entries` menu children in sections of 20, each with a table screen at its link. */
export function bigMenus(entries: number, resource: ResourceDocument): { menus: MenuDocument; screens: Screen[]; codes: string[] } {
  const menus: MenuDocument = { formatVersion: 1, revision: 1, menus: [] };
  const screens: Screen[] = [];
  const codes: string[] = ['bench'];
  for (let s = 0; s * 20 < entries; s++) {
    const section = { code: `sec${s}`, title: t(`Section ${s}`), sort: 1000 - s, defaultChild: `p${s}x0`, children: [] as MenuDocument['menus'][number]['children'] };
    codes.push(section.code);
    for (let c = 0; c < 20 && s * 20 + c < entries; c++) {
      const code = `m${s}x${c}`;
      section.children.push({ code, path: `p${s}x${c}`, title: t(`Entry ${s}.${c}`), sort: 100 - c });
      if (c % 2 === 0) codes.push(code);
      screens.push({
        $schema: 'https://farm-backoffice.local/schema/screen.schema.json',
        formatVersion: 1,
        revision: 1,
        id: `screen${s}x${c}`,
        kind: 'table',
        title: t(`Entry ${s}.${c}`),
        route: `/sec${s}/p${s}x${c}`,
        authority: code,
        keepAlive: true,
        resource: resource.name,
        columns: [{ field: 'f0' }],
      });
    }
    menus.menus.push(section);
  }
  return { menus, screens, codes };
}
