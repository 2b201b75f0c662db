/**
 * A form screen as rjsf sees it: the JSON Schema (the resource's record schema, limited
 * to the fields shown, annotations turned into titles in the current language) and the
 * uiSchema (order, sections and grid, widgets, read-only, help, placeholders, choices).
 * Pure, so that what a form validates is testable without rendering it.
 */
import { withInputRules } from '../schema/input-rules.ts';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { evaluate } from '../schema/conditions.ts';
import { crossFieldProblems } from '../schema/cross-rules.ts';
import type { FieldSchema, ResourceDocument } from '../schema/resource.ts';
import type { Enumerated, FormField, FormMode, FormScreen, FormWidget, LineItems, LineTotal } from '../schema/screen.ts';
import { textOf, type Lang } from '../schema/texts.ts';
import type { ResolvedOption } from './options.ts';

export interface LayoutField {
  name: string;
  span: number;
}
export interface LayoutSection {
  title?: string;
  columns: number;
  fields: LayoutField[];
}

export interface BuiltForm {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  /** The fields shown (and submitted), in order. */
  fields: string[];
}

/** What a form is built from: a resource's record and references, or the form's own record schema. */
export type FormModel = Pick<ResourceDocument, 'record' | 'references' | 'rules'>;

export function formModel(screen: FormScreen, doc: ResourceDocument | undefined): FormModel | undefined {
  if (doc) return doc;
  return screen.record ? { record: screen.record, references: {} } : undefined;
}

/** Fields of every section with their enumeration source, for one options request per form. */
export function enumeratedFields(screen: FormScreen, doc: FormModel | undefined): { field: FormField; e: Enumerated; prop: FieldSchema | undefined }[] {
  const out: { field: FormField; e: Enumerated; prop: FieldSchema | undefined }[] = [];
  for (const section of screen.sections) {
    for (const f of section.fields) {
      const prop = doc?.record.properties[f.field];
      const ref = doc?.references?.[f.field];
      const e: Enumerated = f.options || f.dict || f.optionsFrom || f.optionsEndpoint ? f : ref ? { optionsFrom: { resource: ref.resource } } : f;
      out.push({ field: f, e, prop });
      if (prop) out.push(...enumeratedItemFields(f.field, f.items, prop));
    }
  }
  return out;
}

/** The item properties of a line-items field, as its rows lay them out (declared ones first, then the rest). */
export function lineItemSchema(prop: FieldSchema | undefined): Record<string, FieldSchema> | null {
  return prop?.type === 'array' && prop.items?.type === 'object' && prop.items.properties ? prop.items.properties : null;
}

/** The properties of a line item in the order its row shows them: the record's order (declare the record's properties in the order the rows should show them). */
export function lineItemOrder(props: Record<string, FieldSchema>, _items: LineItems | undefined): string[] {
  return Object.keys(props);
}

/** Line-item properties with options, keyed by their dot path without indexes ("workItems.workTypeId"). */
function enumeratedItemFields(path: string, items: LineItems | undefined, prop: FieldSchema): { field: FormField; e: Enumerated; prop: FieldSchema | undefined }[] {
  const props = lineItemSchema(prop);
  if (!props) return [];
  const out: { field: FormField; e: Enumerated; prop: FieldSchema | undefined }[] = [];
  for (const x of items?.fields ?? []) {
    const p = props[x.field];
    if (!p) continue;
    const at = `${path}.${x.field}`;
    if (x.options || x.dict || x.optionsFrom || x.optionsEndpoint) out.push({ field: { ...x, field: at, items: undefined } as FormField, e: x, prop: p });
    out.push(...enumeratedItemFields(at, x.items, p));
  }
  return out;
}

/**
 * The uiSchema of a line-items field's rows: each row a grid of `columns` (default one per
 * property, at most 6; a nested list takes a whole line), choice widgets with their
 * options (keyed by the dot path of the property, without indexes), nested lists alike.
 */
function lineItemsUi(items: LineItems | undefined, props: Record<string, FieldSchema>, path: string, lang: Lang, choices: Map<string, ResolvedOption[] | null>, mode: FormMode): UiSchema {
  const names = lineItemOrder(props, items);
  const columns = items?.columns ?? Math.min(names.filter((n) => !lineItemSchema(props[n])).length || 1, 6);
  const declared = new Map((items?.fields ?? []).map((x) => [x.field, x]));
  const ui: UiSchema = {};
  const fields: LayoutField[] = [];
  for (const name of names) {
    const p = props[name];
    const x = declared.get(name);
    // Hidden in this mode: carried in the row's data, not shown.
    if (x?.hiddenIn?.includes(mode)) {
      ui[name] = { 'ui:widget': 'hidden' };
      continue;
    }
    const nested = lineItemSchema(p);
    fields.push({ name, span: nested ? columns : Math.min(x?.span ?? 1, columns) });
    if (nested) {
      ui[name] = { items: lineItemsUi(x?.items, nested, `${path}.${name}`, lang, choices, mode) };
      continue;
    }
    if (x?.readOnly) {
      // Text, never an input (the ordered quantity beside the quantity shipped now).
      ui[name] = { 'ui:widget': 'readOnlyText', 'ui:readonly': true };
      continue;
    }
    const enumerated = !!(x?.options || x?.dict || x?.optionsFrom || x?.optionsEndpoint);
    const widget = x?.widget ?? defaultWidget({ field: name, ...(enumerated ? { options: [] } : {}) } as FormField, p, false);
    const u: Record<string, unknown> = {};
    const rjsfWidget = RJSF_WIDGET[widget];
    if (rjsfWidget) u['ui:widget'] = rjsfWidget;
    if (x?.placeholder) u['ui:placeholder'] = textOf(x.placeholder, lang);
    if (rjsfWidget?.startsWith('choice')) u['ui:options'] = { choices: choices.get(`${path}.${name}`) ?? [], multiple: false };
    ui[name] = u;
  }
  ui['ui:order'] = [...names, '*'];
  ui['ui:options'] = { sections: [{ columns, fields }] satisfies LayoutSection[], ...(items?.lineTotal ? { lineTotal: lineTotalUi(items.lineTotal, lang) } : {}) };
  return ui;
}

/** What the row template and the list's footer need of a line total: the two properties and the titles in the form's language. */
export interface LineTotalUi {
  quantity: string;
  unitPrice: string;
  title: string;
  totalTitle: string;
}

const TOTAL_TITLE = { zh: '合计', en: 'Total', es: 'Total' };

function lineTotalUi(t: LineTotal, lang: Lang): LineTotalUi {
  return { quantity: t.quantity, unitPrice: t.unitPrice, title: textOf(t.title, lang), totalTitle: textOf(t.totalTitle ?? TOTAL_TITLE, lang) };
}

/** A geometry field of points only: entered as longitude and latitude. */
export function isPointField(prop: FieldSchema | undefined): boolean {
  const kinds = prop?.['x-geometry']?.kinds;
  return !!kinds && kinds.length === 1 && kinds[0] === 'Point';
}

export function defaultWidget(f: FormField, prop: FieldSchema | undefined, isReference: boolean): FormWidget {
  const enumerated = !!(f.options || f.dict || f.optionsFrom || f.optionsEndpoint || isReference);
  if (prop?.['x-file']) return 'file';
  if (prop?.type === 'array') return enumerated || prop.items?.enum ? 'multiSelect' : 'input';
  if (enumerated || prop?.enum) return 'select';
  if (prop?.type === 'boolean') return 'switch';
  if (prop?.type === 'integer' || prop?.type === 'number') return 'number';
  if (prop?.format === 'date') return 'date';
  if (prop?.format === 'date-time') return 'datetime';
  return 'input';
}

const RJSF_WIDGET: Record<FormWidget, string | undefined> = {
  input: undefined,
  number: undefined,
  textarea: 'textarea',
  richText: 'richText',
  checkboxTree: 'checkboxTree',
  hidden: 'hidden',
  password: 'password',
  select: 'choiceSelect',
  multiSelect: 'choiceSelect',
  radio: 'choiceRadio',
  checkboxes: 'choiceCheckboxes',
  switch: 'switch',
  date: 'date',
  datetime: 'datetime',
  image: 'imageUrl',
  file: 'file',
};

/**
 * Annotations a form's schema keeps: the validation messages name a field by its x-title
 * and use its x-messages (runtime/schema/messages.ts), exactly as the server does, so the
 * two say the same words even where a screen shows the field under another label.
 */
const KEPT_ANNOTATIONS = new Set(['x-title', 'x-messages']);

/** A property without its display annotations (x-enumTitles …), titled in `lang`. */
function localProp(prop: FieldSchema, title: string, lang: Lang): RJSFSchema {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(prop)) {
    if (k.startsWith('x-') && !KEPT_ANNOTATIONS.has(k)) continue;
    if (k === 'items' && v && typeof v === 'object') out.items = localProp(v as FieldSchema, '', lang);
    else if (k === 'properties' && v && typeof v === 'object')
      // Nested properties keep their own title ("中文", "English" of a text's parts), else their x-title, else their name.
      out.properties = Object.fromEntries(
        Object.entries(v as Record<string, FieldSchema>).map(([n, p]) => [n, localProp(p, p['x-title'] ? textOf(p['x-title'], lang) : (p.title ?? n), lang)]),
      );
    else out[k] = v;
  }
  if (title) out.title = title;
  return out as RJSFSchema;
}

export function fieldTitle(f: { field: string; title?: FormField['title'] }, prop: FieldSchema | undefined, lang: Lang): string {
  return f.title ? textOf(f.title, lang) : prop?.['x-title'] ? textOf(prop['x-title'], lang) : f.field;
}

/**
 * The rjsf schemas for `mode` over the current `data`: a field is left out when hidden in
 * this mode or when its (or its section's) condition fails, so it is neither validated
 * nor submitted.
 */
export function buildForm(
  screen: FormScreen,
  doc: FormModel,
  mode: FormMode,
  data: Record<string, unknown>,
  lang: Lang,
  choices: Map<string, ResolvedOption[] | null>,
  /** Whether the user holds one of these codes (a field's `requires`); everything by default. */
  holds: (codes: string[]) => boolean = () => true,
): BuiltForm {
  const properties: Record<string, RJSFSchema> = {};
  const uiSchema: UiSchema = {};
  const fields: string[] = [];
  const sections: LayoutSection[] = [];
  const required = new Set(doc.record.required ?? []);

  for (const section of screen.sections) {
    if (section.when && !safeEvaluate(section.when, data)) continue;
    const columns = section.columns ?? 2;
    const layout: LayoutSection = { title: section.title ? textOf(section.title, lang) : undefined, columns, fields: [] };
    for (const f of section.fields) {
      if (f.hiddenIn?.includes(mode)) continue;
      if (f.requires && !holds(f.requires)) continue;
      if (f.when && !safeEvaluate(f.when, data)) continue;
      const prop = doc.record.properties[f.field];
      if (!prop || properties[f.field]) continue;
      const title = fieldTitle(f, prop, lang);
      properties[f.field] = localProp(prop, title, lang);
      fields.push(f.field);
      layout.fields.push({ name: f.field, span: Math.min(f.span ?? 1, columns) });
      const widget = f.widget ?? defaultWidget(f, prop, !!doc.references?.[f.field]);
      const ui: Record<string, unknown> = { 'ui:title': title };
      const rjsfWidget = RJSF_WIDGET[widget];
      if (rjsfWidget) ui['ui:widget'] = rjsfWidget;
      if (widget === 'checkboxTree') ui['ui:options'] = { tree: f.tree };
      if (f.placeholder) ui['ui:placeholder'] = textOf(f.placeholder, lang);
      if (f.help) ui['ui:help'] = textOf(f.help, lang);
      if (f.readOnlyIn?.includes(mode)) ui['ui:readonly'] = true;
      // Field types (docs/schema-language.md): files get the upload box, a map point its two boxes.
      const fileSpec = prop['x-file'];
      if (fileSpec && (!f.widget || f.widget === 'file')) {
        ui['ui:widget'] = 'fileUpload';
        ui['ui:options'] = { resource: screen.resource ?? '', field: f.field, accept: fileSpec.accept, maxBytes: fileSpec.maxBytes, maxFiles: prop.maxItems ?? 1 };
      }
      if (!f.widget && isPointField(prop)) ui['ui:widget'] = 'geoPoint';
      const opts = choices.get(f.field);
      if (rjsfWidget?.startsWith('choice')) ui['ui:options'] = { ...(ui['ui:options'] as object), choices: opts ?? [], multiple: widget === 'multiSelect' || prop.type === 'array' };
      const rows = lineItemSchema(prop);
      if (rows) {
        ui.items = lineItemsUi(f.items, rows, f.field, lang, choices, mode);
        // The sum of the line totals goes under the rows (the array's template reads it).
        if (f.items?.lineTotal) ui['ui:options'] = { ...(ui['ui:options'] as object), lineTotal: lineTotalUi(f.items.lineTotal, lang) };
      }
      Object.assign(ui, f.ui ?? {});
      uiSchema[f.field] = ui;
    }
    if (layout.fields.length) sections.push(layout);
  }
  uiSchema['ui:order'] = [...fields, '*'];
  uiSchema['ui:options'] = { sections };
  uiSchema['ui:submitButtonOptions'] = { norender: true };
  return {
    // With the rules of every field (no control character, finite numbers), as the server checks them.
    schema: withInputRules({ type: 'object', properties, required: fields.filter((f) => required.has(f)) }),
    uiSchema,
    fields,
  };
}

/**
 * What of the form's data the layout depends on: the outcome of every section and field
 * condition. The schemas are rebuilt only when this changes, not on every keystroke, so
 * rjsf keeps its compiled state while the user types.
 */
export function conditionsKey(screen: FormScreen, data: Record<string, unknown>): string {
  let key = '';
  for (const section of screen.sections) {
    if (section.when) key += safeEvaluate(section.when, data) ? '1' : '0';
    for (const f of section.fields) if (f.when) key += safeEvaluate(f.when, data) ? '1' : '0';
  }
  return key;
}

function safeEvaluate(c: Parameters<typeof evaluate>[0], data: unknown): boolean {
  try {
    return evaluate(c, data);
  } catch {
    return false;
  }
}

/** The body a form submits: the shown fields only (a hidden field is not sent), plus `version` on update. */
export function submitBody(fields: string[], data: Record<string, unknown>, mode: FormMode, loaded: Record<string, unknown> | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) if (data[f] !== undefined) body[f] = data[f];
  if (mode === 'edit' && loaded && loaded.version !== undefined) body.version = loaded.version;
  return body;
}

/**
 * The cross-field rules the form's data breaks (the server's words, runtime/schema/cross-rules.ts),
 * on the shown fields only: a rule about a hidden field is the server's to judge.
 */
export function crossFieldErrors(model: FormModel, fields: string[], data: Record<string, unknown>, lang: Lang): { field: string; message: string }[] {
  return crossFieldProblems(model.rules, model.record.properties, data, lang).filter((p) => fields.includes(p.field));
}

/** Two rjsf ErrorSchemas as one (the server's refusal and the live cross-field errors). */
export function mergeErrorSchemas(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!a || !Object.keys(a).length) return b && Object.keys(b).length ? b : undefined;
  if (!b || !Object.keys(b).length) return a;
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (k === '__errors') out.__errors = [...new Set([...((a.__errors as string[]) ?? []), ...(v as string[])])];
    else out[k] = mergeErrorSchemas(a[k] as Record<string, unknown> | undefined, v as Record<string, unknown>);
  }
  return out;
}

/** `[{field: "a.b", message}]` → rjsf's ErrorSchema `{a: {b: {__errors: [message]}}}`; the rest go to the form's alert. */
export function serverErrors(problems: { field: string; message: string }[], fields: string[]): { extra: Record<string, unknown>; other: string[] } {
  const extra: Record<string, unknown> = {};
  const other: string[] = [];
  for (const p of problems) {
    const path = p.field.replace(/^\//, '').split(/[./]/).filter(Boolean);
    if (!path.length || !fields.includes(path[0])) {
      other.push(p.message);
      continue;
    }
    let node = extra as Record<string, unknown>;
    for (const seg of path) node = (node[seg] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(p.message);
  }
  return { extra, other };
}

/**
 * Route and query values are text: a number or integer property gets the number they
 * hold (left as text when they hold none, so the form shows the type error on the field).
 */
export function typedInitial(initial: Record<string, unknown> | undefined, properties: Record<string, { type?: unknown }> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(initial ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    const type = properties?.[k]?.type;
    const numeric = (type === 'integer' || type === 'number') && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
    out[k] = numeric ? Number(v) : v;
  }
  return out;
}
