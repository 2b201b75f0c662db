/**
 * The checks of resource documents: one document against the meta-schema and then its
 * meaning, and a set of documents as a whole (loadResourceDocuments). Carries the
 * meta-schema validator, so the console's screens import types.ts, query.ts or
 * access.ts instead.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import metaSchema from '../resource.schema.json' with { type: 'json' };
import { createAjv } from '../ajv.ts';
import { COMPARE_KINDS, ruleFields, type CrossFieldRule } from '../cross-rules.ts';
import validateResourceMeta from '../generated/resource.ts';
import { parseSort, filterParamNames, scalarTypeOf } from './query.ts';
import { checkTransitions } from '../transitions.ts';
import { servesOperation } from '../../protocol/operations.ts';
import { WRITE_OPERATIONS } from './access.ts';
import { checkPublicRead } from '../public-read.ts';
import {
  META_FIELDS, PAGE_PARAMS,
  TABLE_META_COLUMNS,
  type DocumentProblem, type DocumentSource, type FieldSchema, type RecordSchema, type ResourceDocument, type ResourceScope, type TableStorage,
} from './types.ts';

export const RESOURCE_META_SCHEMA_ID: string = metaSchema.$id;
export { metaSchema as resourceMetaSchema };

export class ResourceDocumentError extends Error {
  constructor(readonly problems: DocumentProblem[]) {
    super(
      `invalid resource document${problems.length > 1 ? 's' : ''}:\n` +
        problems.map((p) => `  ${p.file}#${p.pointer} ${p.message}`).join('\n'),
    );
    this.name = 'ResourceDocumentError';
  }
}

// resource.schema.json compiled ahead of time (tools/meta-validators.ts).
const metaValidator = validateResourceMeta as unknown as ValidateFunction;
function validateMeta(doc: unknown): ErrorObject[] {
  return metaValidator(doc) ? [] : [...(metaValidator.errors ?? [])];
}

/** ajv's errors for one document, reduced to the ones a person can act on. */
function metaProblems(errors: ErrorObject[]): { pointer: string; message: string }[] {
  // `if`/`then` and `allOf` wrappers repeat what the inner error already says.
  const useful = errors.filter((e) => e.keyword !== 'if' && e.keyword !== 'allOf');
  const seen = new Set<string>();
  const out: { pointer: string; message: string }[] = [];
  for (const e of useful.length ? useful : errors) {
    let pointer = e.instancePath;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') {
      pointer += `/${escapePointer(String(e.params.additionalProperty))}`;
      message = 'is not allowed here';
    } else if (e.keyword === 'required') {
      pointer += `/${escapePointer(String(e.params.missingProperty))}`;
      message = 'is required';
    } else if (e.keyword === 'enum') {
      message += `: ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'const') {
      message += `: ${JSON.stringify(e.params.allowedValue)}`;
    }
    const key = `${pointer} ${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ pointer, message });
    }
  }
  return out;
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Problems of one parsed document on its own (meta-schema, then meaning). */
export function checkResourceDocument(doc: unknown): { pointer: string; message: string }[] {
  const meta = metaProblems(validateMeta(doc));
  if (meta.length) return meta;
  const d = doc as ResourceDocument;
  const problems: { pointer: string; message: string }[] = [];
  const props = d.record.properties;
  const fieldProblem = (pointer: string, field: string, need: string) => {
    if (!(field in props)) problems.push({ pointer, message: `names "${field}", which is not a property of the record` });
    else if (need === 'scalar' && !scalarTypeOf(props[field]))
      problems.push({ pointer, message: `names "${field}", which is not a string, number or boolean property` });
  };

  for (const [name, field] of Object.entries(props)) {
    const at = `/record/properties/${name}`;
    if ((META_FIELDS as readonly string[]).includes(name) || (PAGE_PARAMS as readonly string[]).includes(name))
      problems.push({ pointer: at, message: `"${name}" is reserved for the engine` });
    checkField(field, at, problems, props);
  }
  (d.record.required ?? []).forEach((name, i) => {
    if (!(name in props)) problems.push({ pointer: `/record/required/${i}`, message: `"${name}" is not a property of the record` });
  });

  fieldProblem('/displayField', d.displayField, 'scalar');
  if (d.importKey !== undefined) {
    const key = props[d.importKey];
    if (!key || key.type !== 'string' || !(d.record.required ?? []).includes(d.importKey))
      problems.push({ pointer: '/importKey', message: `names "${d.importKey}", which is not a required string property of the record` });
  }

  const filterParams = new Map<string, string>();
  const claim = (param: string, pointer: string) => {
    const clash = filterParams.get(param);
    if (clash) problems.push({ pointer, message: `its query parameter "${param}" clashes with ${clash}` });
    else if ((PAGE_PARAMS as readonly string[]).includes(param))
      problems.push({ pointer, message: `its query parameter "${param}" clashes with the page query's own` });
    filterParams.set(param, pointer);
  };
  d.searchable.forEach((s, i) => {
    const at = `/searchable/${i}`;
    if (s.filter === 'keyword') {
      (s.fields ?? []).forEach((f, j) => {
        fieldProblem(`${at}/fields/${j}`, f, 'scalar');
        if (f in props && props[f].type !== 'string') problems.push({ pointer: `${at}/fields/${j}`, message: `keyword filters search string properties; "${f}" is ${props[f].type}` });
      });
      claim(s.field, at);
      return;
    }
    fieldProblem(`${at}/field`, s.field, 'scalar');
    const field = props[s.field];
    const type = scalarTypeOf(field);
    if (!type) return;
    if (s.filter === 'like' && type !== 'string') problems.push({ pointer: `${at}/filter`, message: 'like filters need a string property' });
    if (s.filter === 'range' && type === 'boolean') problems.push({ pointer: `${at}/filter`, message: 'range filters need a number or string property' });
    if (s.filter === 'in' && type === 'boolean') problems.push({ pointer: `${at}/filter`, message: 'in filters need a number or string property' });
    for (const param of filterParamNames(s)) claim(param, at);
  });

  d.sortable.forEach((f, i) => fieldProblem(`/sortable/${i}`, f, 'scalar'));
  const sortKeys = parseSort(d.defaultSort, d);
  if ('error' in sortKeys) problems.push({ pointer: '/defaultSort', message: sortKeys.error });

  for (const [action, code] of Object.entries(d.elements)) {
    if (!code.startsWith(`${d.authority}:`))
      problems.push({ pointer: `/elements/${action}`, message: `element codes are "<authority>:<action>"; expected a code starting with "${d.authority}:"` });
  }

  // Each write the document serves needs its element code; a write it does not serve needs none.
  for (const [action, ops] of Object.entries(WRITE_OPERATIONS)) {
    if (d.elements[action] === undefined && ops.some((op) => servesOperation(d, op)))
      problems.push({ pointer: `/elements/${action}`, message: `is required: the document serves ${ops.filter((op) => servesOperation(d, op)).join(' and ')}` });
  }

  (d.authorityAliases ?? []).forEach((alias, i) => {
    if (alias === d.authority) problems.push({ pointer: `/authorityAliases/${i}`, message: 'repeats the authority' });
  });

  for (const [field, ref] of Object.entries(d.references ?? {})) {
    const at = `/references/${field}`;
    if (!(field in props)) problems.push({ pointer: at, message: `"${field}" is not a property of the record` });
    else if (props[field].type !== 'integer') problems.push({ pointer: at, message: `a reference holds a record id: "${field}" must be an integer property` });
    if (ref.resource === d.name && d.scope !== 'platform')
      problems.push({ pointer: `${at}/resource`, message: 'a record of a farm or group may not reference its own resource' });
  }

  (d.rules ?? []).forEach((rule, i) => checkRule(rule, `/rules/${i}`, props, problems));
  if (d.storage) checkStorage(d, d.storage, problems);
  problems.push(...checkTransitions(d), ...checkPublicRead(d));

  if (!problems.length) {
    const compileError = recordCompileError(d.record);
    if (compileError) problems.push({ pointer: '/record', message: `is not a usable JSON Schema: ${compileError}` });
  }
  return problems;
}

/**
 * A table-backed document on its own: every property has a column, no column twice, the
 * owner columns its scope needs, fixed values its properties accept. Whether the table and
 * columns exist is the server's check at start (server/resources/table-check.ts). What the
 * engine does only over its JSON table is refused here rather than half-done.
 */
function checkStorage(d: ResourceDocument, storage: TableStorage, problems: { pointer: string; message: string }[]) {
  const props = d.record.properties;
  for (const name of Object.keys(props)) {
    if (!(name in storage.columns)) problems.push({ pointer: '/storage/columns', message: `has no column for the property "${name}"` });
  }
  const seen = new Map<string, string>();
  for (const [field, column] of Object.entries(storage.columns)) {
    const at = `/storage/columns/${field}`;
    if (!(field in props)) problems.push({ pointer: at, message: `"${field}" is not a property of the record` });
    if ((TABLE_META_COLUMNS as readonly string[]).includes(column)) problems.push({ pointer: at, message: `"${column}" is one of the engine's meta columns (${TABLE_META_COLUMNS.join(', ')})` });
    const other = seen.get(column);
    if (other) problems.push({ pointer: at, message: `column "${column}" is also the column of "${other}"` });
    seen.set(column, field);
    const fixed = storage.fixed?.[column];
    if (fixed !== undefined && field in props) {
      const f = props[field];
      const fits = f.enum ? f.enum.some((v) => v === fixed) : scalarTypeOf(f) === (typeof fixed === 'string' ? 'string' : typeof fixed === 'number' ? 'number' : 'boolean');
      if (!fits) problems.push({ pointer: at, message: `maps to the fixed column "${column}", so the property must accept ${JSON.stringify(fixed)}` });
    }
  }
  const owner = storage.owner ?? {};
  if (d.scope === 'farm' && !owner.farmId) problems.push({ pointer: '/storage/owner/farmId', message: 'a farm-scoped resource needs the column of its farm' });
  if (d.scope === 'group' && !owner.blocId) problems.push({ pointer: '/storage/owner/blocId', message: 'a group-scoped resource needs the column of its group' });
  if (d.scope === 'platform' && (owner.farmId || owner.blocId)) problems.push({ pointer: '/storage/owner', message: 'a platform resource has no owner' });
  for (const [key, column] of Object.entries(owner)) {
    if (seen.has(column)) problems.push({ pointer: `/storage/owner/${key}`, message: `column "${column}" is also the column of "${seen.get(column)}"` });
    if (column !== 'id' && (TABLE_META_COLUMNS as readonly string[]).includes(column)) problems.push({ pointer: `/storage/owner/${key}`, message: `"${column}" is one of the engine's meta columns` });
  }
  if (owner.blocId === 'id') problems.push({ pointer: '/storage/owner/blocId', message: 'a group is not a row of the table' });
  if (d.references && Object.keys(d.references).length) problems.push({ pointer: '/references', message: 'references are not supported on table-backed resources yet' });
  if (d.publicRead) problems.push({ pointer: '/publicRead', message: 'public reads are not supported on table-backed resources yet' });
}

/**
 * Whether a record schema compiles, remembered by its text: compiling costs ~10 ms per
 * document, and the console, the tools and the tests check the same documents over and
 * over. One ajv serves every compile; each schema is removed from it afterwards so that
 * it does not grow with every document ever checked.
 */
const compiledRecords = new Map<string, string | null>();
const MAX_COMPILED_RECORDS = 500;
let recordAjv: ReturnType<typeof createAjv> | undefined;
function recordCompileError(record: RecordSchema): string | null {
  const key = JSON.stringify(record);
  const known = compiledRecords.get(key);
  if (known !== undefined) return known;
  recordAjv ??= createAjv();
  let error: string | null = null;
  try {
    recordAjv.compile(record);
  } catch (err) {
    error = (err as Error).message;
  } finally {
    recordAjv.removeSchema(record);
  }
  if (compiledRecords.size >= MAX_COMPILED_RECORDS) compiledRecords.clear();
  compiledRecords.set(key, error);
  return error;
}

/** A rule names properties of the record, of kinds it can compare. */
function checkRule(rule: CrossFieldRule, at: string, props: Record<string, FieldSchema>, problems: { pointer: string; message: string }[]) {
  const names = ruleFields(rule);
  let known = true;
  names.forEach((name, j) => {
    if (!(name in props)) {
      known = false;
      const key = rule.kind === 'atLeastOne' ? `fields/${j}` : j === 0 ? 'field' : rule.kind === 'requiredWith' ? 'with' : 'than';
      problems.push({ pointer: `${at}/${key}`, message: `names "${name}", which is not a property of the record` });
    }
  });
  if (!known) return;
  if (new Set(names).size !== names.length) problems.push({ pointer: at, message: 'names the same property twice' });
  if (!(COMPARE_KINDS as readonly string[]).includes(rule.kind)) return;
  const [a, b] = names.map((n) => props[n]);
  const kind = (f: FieldSchema) => (f.type === 'integer' || f.type === 'number' ? 'number' : f.type === 'string' ? 'string' : f.type);
  if (rule.kind === 'after' || rule.kind === 'notBefore') {
    const dated = (f: FieldSchema) => f.type === 'string' && (f.format === 'date' || f.format === 'date-time');
    if (!dated(a) || !dated(b) || a.format !== b.format)
      problems.push({ pointer: at, message: `${rule.kind} compares two date or two date-time properties; "${names[0]}" and "${names[1]}" are not` });
  } else if (kind(a) !== kind(b) || (kind(a) !== 'number' && kind(a) !== 'string')) {
    problems.push({ pointer: at, message: `${rule.kind} compares two number or two string properties; "${names[0]}" is ${a.type} and "${names[1]}" is ${b.type}` });
  } else if (kind(a) === 'string' && a.format !== b.format) {
    problems.push({ pointer: at, message: `"${names[0]}" and "${names[1]}" have different formats, so their text does not order them alike` });
  }
}

function checkField(field: FieldSchema, at: string, problems: { pointer: string; message: string }[], record?: Record<string, FieldSchema>) {
  const geometry = field['x-geometry'];
  if (geometry?.areaField !== undefined) {
    const target = record?.[geometry.areaField];
    if (!target || (target.type !== 'number' && target.type !== 'integer'))
      problems.push({ pointer: `${at}/x-geometry/areaField`, message: `names "${geometry.areaField}", which is no number property of the record` });
  }
  if (field['x-file']) {
    const items = field.items;
    if (field.type !== 'array' || items?.type !== 'integer' || items.minimum !== 1 || items.maximum !== 2147483647)
      problems.push({ pointer: `${at}/x-file`, message: 'belongs on an array of integers from 1 to 2147483647 (file ids)' });
    if ((field.maxItems ?? 0) > 20) problems.push({ pointer: `${at}/maxItems`, message: 'a file field holds at most 20 files' });
    if (record === undefined) problems.push({ pointer: `${at}/x-file`, message: 'is allowed on a top-level property of the record only' });
  }
  if (field.minimum !== undefined && field.maximum !== undefined && field.minimum > field.maximum)
    problems.push({ pointer: `${at}/minimum`, message: 'is greater than maximum' });
  if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength)
    problems.push({ pointer: `${at}/minLength`, message: 'is greater than maxLength' });
  if (field.minItems !== undefined && field.maxItems !== undefined && field.minItems > field.maxItems)
    problems.push({ pointer: `${at}/minItems`, message: 'is greater than maxItems' });
  if (field['x-enumTitles'] && (!field.enum || field['x-enumTitles'].length !== field.enum.length))
    problems.push({ pointer: `${at}/x-enumTitles`, message: 'needs one title per value of enum' });
  if (field.pattern !== undefined) {
    try {
      new RegExp(field.pattern, 'u');
    } catch {
      problems.push({ pointer: `${at}/pattern`, message: 'is not a valid regular expression' });
    }
  }
  if (field.items) checkField(field.items, `${at}/items`, problems);
  for (const [name, sub] of Object.entries(field.properties ?? {})) checkField(sub, `${at}/properties/${name}`, problems);
  (field.required ?? []).forEach((name, i) => {
    if (!field.properties || !(name in field.properties)) problems.push({ pointer: `${at}/required/${i}`, message: `"${name}" is not a property` });
  });
}

/**
 * Parses and checks every document, then the set as a whole (unique names and base
 * paths, references to known resources of a compatible scope). Throws one
 * ResourceDocumentError listing every problem, so a broken set never half-loads.
 */
export function loadResourceDocuments(sources: DocumentSource[]): ResourceDocument[] {
  const problems: DocumentProblem[] = [];
  const docs: { file: string; doc: ResourceDocument }[] = [];
  for (const { file, text } of sources) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      problems.push({ file, pointer: '', message: `is not valid JSON: ${(err as Error).message}` });
      continue;
    }
    const found = checkResourceDocument(parsed);
    if (found.length) problems.push(...found.map((p) => ({ file, ...p })));
    else docs.push({ file, doc: parsed as ResourceDocument });
  }
  const byName = new Map<string, { file: string; doc: ResourceDocument }>();
  const byPath = new Map<string, string>();
  for (const entry of docs) {
    const { file, doc } = entry;
    const other = byName.get(doc.name);
    if (other) problems.push({ file, pointer: '/name', message: `"${doc.name}" is also the name of ${other.file}` });
    else byName.set(doc.name, entry);
    const otherPath = byPath.get(doc.basePath.toLowerCase());
    if (otherPath) problems.push({ file, pointer: '/basePath', message: `"${doc.basePath}" is also the base path of ${otherPath}` });
    else byPath.set(doc.basePath.toLowerCase(), file);
  }
  for (const { file, doc } of docs) {
    for (const [field, ref] of Object.entries(doc.references ?? {})) {
      const target = byName.get(ref.resource)?.doc;
      const at = `/references/${field}/resource`;
      if (!target) problems.push({ file, pointer: at, message: `names "${ref.resource}", which is no loaded resource` });
      else if (target.storage) problems.push({ file, pointer: at, message: `names "${ref.resource}", which lives in a table of its own; references to table-backed resources are not supported yet` });
      else if (!referenceAllowed(doc.scope, target.scope))
        problems.push({ file, pointer: at, message: `a ${doc.scope} record cannot reference ${target.scope} records` });
    }
  }
  if (problems.length) throw new ResourceDocumentError(problems);
  return docs.map((d) => d.doc).sort((a, b) => a.name.localeCompare(b.name));
}

/** Shared records may point at shared ones only; a farm's record may point at its farm, its group or the platform. */
export function referenceAllowed(from: ResourceScope, to: ResourceScope): boolean {
  if (to === 'platform') return true;
  if (from === 'platform') return false;
  if (from === 'group') return to === 'group';
  return true;
}
