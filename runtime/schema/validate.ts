/**
 * Meta-schema validation of screen documents, with ajv's errors turned into problems a
 * person can act on: one line per place, a JSON pointer to it, and a message that names
 * what is expected instead of repeating the meta-schema's internals.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import validateFormat0 from './generated/screen-format0.ts';
import validateFormat1 from './generated/screen-format1.ts';
import { FORMAT_META_SCHEMAS, MigrationError, formatOf, migrateScreen } from './migrations/index.ts';
import { SCREEN_FORMAT_VERSION, type Screen } from './screen.ts';

export type Severity = 'error' | 'warning';

/** One thing wrong (or doubtful) at one place of one document. */
export interface SchemaProblem {
  file: string;
  /** RFC 6901 pointer into the document as written ("" for the whole document). */
  pointer: string;
  message: string;
  severity: Severity;
}

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The meta-schema of each format, compiled ahead of time (tools/meta-validators.ts, with
 * the options of meta-validator-options.ts): validating needs no compiling, in Node or in
 * the browser.
 */
const VALIDATORS: Readonly<Record<number, ValidateFunction>> = {
  0: validateFormat0 as unknown as ValidateFunction,
  1: validateFormat1 as unknown as ValidateFunction,
};

function validatorFor(format: number): ValidateFunction | undefined {
  return VALIDATORS[format];
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s !== undefined && s.length > 60 ? `${s.slice(0, 57)}...` : String(s);
}

/** The `kind` values a discriminated oneOf accepts, read from its branches in the meta-schema. */
function discriminatorValues(parent: unknown, root: unknown): string[] {
  const branches = (parent as { oneOf?: { $ref?: string }[] } | undefined)?.oneOf ?? [];
  const values: string[] = [];
  for (const b of branches) {
    let target: unknown = b;
    if (b.$ref?.startsWith('#/')) {
      target = b.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, seg) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined), root);
    }
    const kind = (target as { properties?: { kind?: { const?: unknown } } } | undefined)?.properties?.kind?.const;
    if (typeof kind === 'string') values.push(kind);
  }
  return values;
}

function describe(e: ErrorObject, root: unknown): { pointer: string; message: string } {
  const p = e.params as Record<string, unknown>;
  const parent = e.parentSchema as { description?: string } | undefined;
  switch (e.keyword) {
    case 'required':
      return {
        pointer: `${e.instancePath}/${escapePointerSegment(String(p.missingProperty))}`,
        message: parent?.description ? `is required: ${parent.description}` : 'is required',
      };
    case 'minLength':
      return { pointer: e.instancePath, message: p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long` };
    case 'minItems':
      return { pointer: e.instancePath, message: p.limit === 1 ? 'must not be an empty list' : `must have at least ${String(p.limit)} items` };
    case 'additionalProperties':
      return { pointer: `${e.instancePath}/${escapePointerSegment(String(p.additionalProperty))}`, message: 'is not a property allowed here' };
    case 'unevaluatedProperties':
      return { pointer: `${e.instancePath}/${escapePointerSegment(String(p.unevaluatedProperty))}`, message: 'is not a property allowed here' };
    case 'enum':
      return { pointer: e.instancePath, message: `is ${show(e.data)}; expected one of ${(p.allowedValues as unknown[]).map(show).join(', ')}` };
    case 'const':
      return { pointer: e.instancePath, message: `is ${show(e.data)}; expected ${show(p.allowedValue)}` };
    case 'pattern':
      return {
        pointer: e.instancePath,
        message: parent?.description ? `${show(e.data)} does not fit: ${parent.description}` : `${show(e.data)} does not match ${String(p.pattern)}`,
      };
    case 'anyOf':
      return { pointer: e.instancePath, message: parent?.description ? `${show(e.data)} is none of: ${parent.description}` : 'matches none of the allowed forms' };
    case 'discriminator': {
      if (p.error === 'mapping') {
        const allowed = discriminatorValues(e.parentSchema, root);
        return { pointer: `${e.instancePath}/${String(p.tag)}`, message: `is ${show(p.tagValue)}; expected one of ${allowed.map(show).join(', ')}` };
      }
      return { pointer: `${e.instancePath}/${String(p.tag)}`, message: 'must be a string naming the kind' };
    }
    case 'false schema':
      return { pointer: e.instancePath, message: 'is not allowed here' };
    case 'type':
      return { pointer: e.instancePath, message: `is ${show(e.data)}; expected ${Array.isArray(p.type) ? (p.type as string[]).join(' or ') : String(p.type)}` };
    default:
      return { pointer: e.instancePath, message: e.message ?? e.keyword };
  }
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/** ajv's errors reduced to one readable problem per place and reason. */
export function problemsFromAjv(errors: ErrorObject[], file: string, metaSchema: unknown): SchemaProblem[] {
  const keep = errors.map(() => true);
  errors.forEach((e, i) => {
    // if/then and allOf wrappers only repeat what the inner error says.
    if (e.keyword === 'if' || e.keyword === 'allOf' || e.keyword === 'oneOf') keep[i] = false;
    // An anyOf's branch errors come right before it; its own message (the description) says it all.
    if (e.keyword === 'anyOf') {
      for (let j = i - 1; j >= 0 && within(errors[j].instancePath, e.instancePath); j--) keep[j] = false;
    }
  });
  const seen = new Set<string>();
  const out: SchemaProblem[] = [];
  errors.forEach((e, i) => {
    if (!keep[i]) return;
    const { pointer, message } = describe(e, metaSchema);
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ file, pointer, message, severity: 'error' });
  });
  return out;
}

export interface ScreenValidation {
  /** The document in the current format, when valid. */
  screen?: Screen;
  /** The format it was written in. */
  from?: number;
  problems: SchemaProblem[];
}

/**
 * Validates a parsed screen document against the meta-schema of the format it declares,
 * migrates it to the current format and validates the result. Problems point into the
 * document as written; a problem found only after migration says so.
 */
export function validateScreenDocument(doc: unknown, file: string): ScreenValidation {
  const from = formatOf(doc);
  if (from === null) {
    const message = doc === null || typeof doc !== 'object' || Array.isArray(doc) ? 'a screen document is a JSON object' : 'must be an integer format number';
    return { problems: [{ file, pointer: doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? '/formatVersion' : '', message, severity: 'error' }] };
  }
  if (from > SCREEN_FORMAT_VERSION) {
    return {
      problems: [{ file, pointer: '/formatVersion', message: `format ${from} is newer than this console's format ${SCREEN_FORMAT_VERSION}`, severity: 'error' }],
    };
  }
  const own = validatorFor(from);
  if (!own) return { problems: [{ file, pointer: '/formatVersion', message: `format ${from} is not a known screen format`, severity: 'error' }] };
  if (!own(doc)) return { from, problems: problemsFromAjv(own.errors ?? [], file, FORMAT_META_SCHEMAS[from]) };
  if (from === SCREEN_FORMAT_VERSION) return { screen: doc as Screen, from, problems: [] };
  let migrated: Screen;
  try {
    migrated = migrateScreen(doc).doc;
  } catch (err) {
    const message = err instanceof MigrationError ? err.message : `migration failed: ${(err as Error).message}`;
    return { from, problems: [{ file, pointer: '', message, severity: 'error' }] };
  }
  const current = validatorFor(SCREEN_FORMAT_VERSION)!;
  if (!current(migrated)) {
    return {
      from,
      problems: problemsFromAjv(current.errors ?? [], file, FORMAT_META_SCHEMAS[SCREEN_FORMAT_VERSION]).map((p) => ({
        ...p,
        message: `${p.message} (after migration from format ${from}; the pointer is into the migrated document)`,
      })),
    };
  }
  return { screen: migrated, from, problems: [] };
}
