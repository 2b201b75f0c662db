/**
 * Completion from the meta-schemas (runtime/schema/*.schema.json) at the cursor's JSON
 * pointer: property names the object at the cursor may have (with their descriptions),
 * and enum / const / boolean values where a value is typed. The schema at a pointer is
 * found by walking properties and items through $ref, allOf, oneOf, anyOf and if/then/else;
 * where a oneOf is told apart by `kind` (screens, actions, columns' renders), the value
 * already written picks the branch.
 */
import type { CompletionContext, CompletionResult, Completion } from '@codemirror/autocomplete';
import { getLocation, parse } from 'jsonc-parser';
import menusSchema from '../../runtime/schema/menus.schema.json' with { type: 'json' };
import resourceSchema from '../../runtime/schema/resource.schema.json' with { type: 'json' };
import screenSchema from '../../runtime/schema/screen.schema.json' with { type: 'json' };
import type { DocType } from './api.ts';

type Schema = Record<string, unknown>;

const ROOTS: Record<DocType, Schema> = { screen: screenSchema as Schema, resource: resourceSchema as Schema, menus: menusSchema as Schema };

function resolveRef(root: Schema, ref: string): Schema | null {
  if (!ref.startsWith('#/')) return null;
  let node: unknown = root;
  for (const seg of ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node && typeof node === 'object' ? (node as Schema) : null;
}

/** The concrete schemas `s` stands for, given the value written there (which picks oneOf branches by `kind`). */
function expand(root: Schema, s: Schema, value: unknown, depth = 0): Schema[] {
  if (depth > 12) return [];
  const out: Schema[] = [s];
  if (typeof s.$ref === 'string') {
    const r = resolveRef(root, s.$ref);
    if (r) out.push(...expand(root, r, value, depth + 1));
  }
  for (const k of ['allOf'] as const) if (Array.isArray(s[k])) for (const x of s[k] as Schema[]) out.push(...expand(root, x, value, depth + 1));
  for (const k of ['then', 'else'] as const) if (s[k] && typeof s[k] === 'object') out.push(...expand(root, s[k] as Schema, value, depth + 1));
  for (const k of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(s[k])) continue;
    const branches = (s[k] as Schema[]).map((x) => expand(root, x, value, depth + 1));
    const kind = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).kind : undefined;
    const picked = kind === undefined ? [] : branches.filter((b) => b.some((x) => acceptsKind(x, kind)));
    for (const b of picked.length ? picked : branches) out.push(...b);
  }
  return out;
}

function acceptsKind(s: Schema, kind: unknown): boolean {
  const p = (s.properties as Record<string, Schema> | undefined)?.kind;
  if (!p) return false;
  return p.const === kind || (Array.isArray(p.enum) && p.enum.includes(kind));
}

/** The schemas of the value at `path` of a document of `type` whose (partial) value is `doc`. */
export function schemasAt(type: DocType, path: readonly (string | number)[], doc: unknown): Schema[] {
  const root = ROOTS[type];
  let current: Schema[] = expand(root, root, doc);
  let value = doc;
  for (const seg of path) {
    const next: Schema[] = [];
    const child = value && typeof value === 'object' ? (value as Record<string, unknown>)[String(seg)] : undefined;
    for (const s of current) {
      if (typeof seg === 'number') {
        if (s.items && typeof s.items === 'object') next.push(...expand(root, s.items as Schema, child));
      } else {
        const props = s.properties as Record<string, Schema> | undefined;
        if (props?.[seg]) next.push(...expand(root, props[seg], child));
        else if (s.additionalProperties && typeof s.additionalProperties === 'object') next.push(...expand(root, s.additionalProperties as Schema, child));
        for (const [pattern, ps] of Object.entries((s.patternProperties as Record<string, Schema> | undefined) ?? {})) if (new RegExp(pattern).test(seg)) next.push(...expand(root, ps, child));
      }
    }
    current = next;
    value = child;
  }
  return current;
}

/** Property names an object at `path` may have, with their descriptions. */
export function propertyNames(type: DocType, path: readonly (string | number)[], doc: unknown): { name: string; description?: string }[] {
  const seen = new Map<string, string | undefined>();
  for (const s of schemasAt(type, path, doc)) {
    for (const [name, p] of Object.entries((s.properties as Record<string, Schema> | undefined) ?? {})) {
      if (!seen.has(name) || !seen.get(name)) seen.set(name, typeof p.description === 'string' ? p.description : undefined);
    }
  }
  return [...seen].map(([name, description]) => ({ name, description }));
}

/** Values the meta-schema lists for the value at `path`. */
export function valueChoices(type: DocType, path: readonly (string | number)[], doc: unknown): unknown[] {
  const out: unknown[] = [];
  const add = (v: unknown) => {
    if (!out.some((x) => JSON.stringify(x) === JSON.stringify(v))) out.push(v);
  };
  for (const s of schemasAt(type, path, doc)) {
    if ('const' in s) add(s.const);
    if (Array.isArray(s.enum)) for (const v of s.enum) add(v);
    if (s.type === 'boolean') {
      add(true);
      add(false);
    }
  }
  return out;
}

/** The CodeMirror completion source for a document of `type`. */
export function schemaCompletion(type: DocType) {
  return (context: CompletionContext): CompletionResult | null => {
    const text = context.state.doc.toString();
    const loc = getLocation(text, context.pos);
    const word = context.matchBefore(/"?[\w$:./-]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const doc = parse(text, [], { allowTrailingComma: true });
    const closingQuote = text[context.pos] === '"' ? 1 : 0;
    if (loc.isAtPropertyKey) {
      const objectPath = loc.path.slice(0, -1);
      const node = objectPath.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[String(k)] : undefined), doc);
      const present = new Set(node && typeof node === 'object' ? Object.keys(node) : []);
      const options: Completion[] = propertyNames(type, objectPath, doc)
        .filter((p) => !present.has(p.name) || p.name === loc.path[loc.path.length - 1])
        .map((p) => ({ label: p.name, type: 'property', info: p.description, apply: `"${p.name}": ` }));
      return options.length ? { from: word.from, to: context.pos + closingQuote, options, validFor: /^"?[\w$]*$/ } : null;
    }
    const choices = valueChoices(type, loc.path, doc);
    if (!choices.length) return null;
    return {
      from: word.from,
      to: context.pos + closingQuote,
      options: choices.map((v) => ({ label: JSON.stringify(v), type: typeof v === 'string' ? 'enum' : 'constant', apply: JSON.stringify(v) })),
      validFor: /^"?[\w$:./-]*$/,
    };
  };
}
