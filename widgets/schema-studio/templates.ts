/**
 * Templates of a new screen made in the studio (docs/studio.md, "A new screen"): a table,
 * form, detail or dashboard document bound to an existing resource, at a route, behind a
 * menu code. The result is an ordinary draft: edited, previewed and published through the
 * same gate as any document (schemas/screens/studio/<id>.json).
 */
import type { LocalizedText } from '../../runtime/protocol/texts.ts';
import { SCREEN_FORMAT_VERSION } from '../../runtime/schema/screen.ts';

export const NEW_SCREEN_KINDS = ['table', 'form', 'detail', 'dashboard'] as const;
export type NewScreenKind = (typeof NEW_SCREEN_KINDS)[number];

/** What a template reads of a resource document. */
export interface TemplateResource {
  name: string;
  title?: LocalizedText;
  record?: { required?: string[]; properties?: Record<string, { type?: string | string[]; readOnly?: boolean }> };
  searchable?: { field: string }[];
}

export interface NewScreenInput {
  kind: NewScreenKind;
  id: string;
  title: LocalizedText;
  resource: TemplateResource;
  route: string;
  authority: string;
}

/** The file of a new screen: named after its id, in the studio's folder. */
export function newScreenFile(id: string): string {
  return `schemas/screens/studio/${id}.json`;
}

/** A new screen's id: a letter, then letters and digits (the file is named after it). */
export const NEW_SCREEN_ID = /^[a-z][A-Za-z0-9]{2,59}$/;

const SCALAR = new Set(['string', 'integer', 'number', 'boolean']);

/** The resource's plain fields (no objects or arrays), in the document's order. */
function scalarFields(r: TemplateResource): string[] {
  return Object.entries(r.record?.properties ?? {})
    .filter(([, p]) => (Array.isArray(p.type) ? p.type : [p.type]).some((t) => t !== undefined && SCALAR.has(t)))
    .map(([name]) => name);
}

/** A detail screen's route names the record: `/:id` is added when missing. */
export function templateRoute(kind: NewScreenKind, route: string): string {
  const r = route.trim();
  return kind === 'detail' && !r.split('/').includes(':id') ? `${r.replace(/\/$/, '')}/:id` : r;
}

export function newScreenDocument(input: NewScreenInput): Record<string, unknown> {
  const { kind, id, title, resource, authority } = input;
  const route = templateRoute(kind, input.route);
  const head = {
    $schema: '../../../runtime/schema/screen.schema.json',
    formatVersion: SCREEN_FORMAT_VERSION,
    // The store writes the published revision's number here (1 for the first).
    revision: 1,
    id,
    kind,
    title,
    route,
    authority,
  };
  const fields = scalarFields(resource);
  if (kind === 'table') {
    return {
      ...head,
      resource: resource.name,
      filters: (resource.searchable ?? []).slice(0, 3).map((s) => ({ field: s.field })),
      columns: fields.slice(0, 6).map((field) => ({ field })),
    };
  }
  if (kind === 'form') {
    const required = resource.record?.required ?? [];
    const editable = fields.filter((f) => !resource.record?.properties?.[f]?.readOnly);
    const chosen = [...new Set([...required.filter((f) => editable.includes(f)), ...editable.slice(0, 6)])];
    return { ...head, resource: resource.name, defaultMode: 'add', idParam: 'id', sections: [{ columns: 2, fields: chosen.map((field) => ({ field })) }] };
  }
  if (kind === 'detail') {
    return { ...head, resource: resource.name, idParam: 'id', sections: [{ columns: 2, fields: fields.slice(0, 8).map((field) => ({ field })) }] };
  }
  return {
    ...head,
    blocks: [
      {
        kind: 'stat',
        title: resource.title ?? { zh: resource.name, en: resource.name, es: resource.name },
        endpoint: { operation: 'page', resource: resource.name },
        value: 'total',
        icon: 'NumberOutlined',
        span: 8,
      },
    ],
  };
}
