/** Small questions the rules ask of resources, routes and texts. */
import type { LocalizedText } from '../../protocol/texts.ts';
import { IMPLICIT_SORTABLE, META_FIELDS, type FieldSchema } from '../resource/types.ts';
import type { Screen } from '../screen.ts';
import { escapePointerSegment } from '../validate.ts';
import type { LintedScreen, Resource } from './context.ts';

/** A field of a reply row: a record property (nested with dots), a meta field, or labels.<reference>. */
export function fieldKnown(r: Resource, path: string, use: 'row' | 'record'): boolean {
  const [head, ...rest] = path.split('.');
  if (use === 'row' && (META_FIELDS as readonly string[]).includes(head)) {
    if (head === 'labels') return rest.length === 1 && !!r.references?.[rest[0]];
    return rest.length === 0;
  }
  let prop: FieldSchema | undefined = r.record.properties[head];
  for (const seg of rest) {
    if (!prop) return false;
    // Through an array: an index, or (as columns pluck) a property of its items.
    prop = prop.type === 'array' ? (/^\d+$/.test(seg) ? prop.items : prop.items?.properties?.[seg]) : prop.properties?.[seg];
  }
  return !!prop;
}

export function isSortable(r: Resource, field: string): boolean {
  return r.sortable.includes(field) || (IMPLICIT_SORTABLE as readonly string[]).includes(field);
}

/** `read`: the screen only reads the resource (options, related lists), so read-only grants count. */
export function checkGrants(r: Resource, authorities: string[], at: string, add: (pointer: string, message: string) => void, mode: 'full' | 'read' = 'full') {
  const granted = new Set([r.authority, ...(r.authorityAliases ?? []), ...(mode === 'read' ? (r.readAuthorities ?? []) : [])]);
  const missing = authorities.filter((a) => !granted.has(a));
  if (missing.length)
    add(at, `${missing.length > 1 ? 'authorities' : 'authority'} ${missing.map((a) => `"${a}"`).join(' and ')} ${missing.length > 1 ? 'do' : 'does'} not grant resource "${r.name}" (granted by ${[...granted].join(', ')}), so its requests would be refused`);
}

/**
 * Whether a route (shape) takes a navigation target (shape): each segment equal, or a
 * literal of the target standing where the route has a parameter ("/s/edit/:id" is a
 * "/s/:operate/:id").
 */
export function routeAccepts(route: string, target: string): boolean {
  const r = route.split('/');
  const t = target.split('/');
  return r.length === t.length && r.every((x, i) => x === t[i] || (x.startsWith(':') && !t[i].startsWith(':')));
}

/** Static segments must match exactly; a literal segment also matches a parameter of the other pattern. */
export function pathsMatch(a: string, b: string): boolean {
  const sa = a.split('/');
  const sb = b.split('/');
  if (sa.length !== sb.length) return false;
  return sa.every((x, i) => x === sb[i] || x.startsWith(':') || sb[i].startsWith(':'));
}

export function pageReaches(s: Screen, id: string, byId: ReadonlyMap<string, LintedScreen>, seen: Set<string>): boolean {
  if (s.kind !== 'page' || seen.has(s.id)) return false;
  seen.add(s.id);
  return s.children.some((c) => c.screen === id || (byId.has(c.screen) && pageReaches(byId.get(c.screen)!.screen, id, byId, seen)));
}

/** Calls `found` for every text still marked untranslated. */
export function walkTexts(node: unknown, pointer: string, found: (pointer: string, langs: string[]) => void): void {
  if (Array.isArray(node)) {
    node.forEach((x, i) => walkTexts(x, `${pointer}/${i}`, found));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (Array.isArray(o.untranslated) && typeof o.zh === 'string' && o.untranslated.length) found(pointer, o.untranslated as string[]);
  for (const [k, v] of Object.entries(o)) if (k !== 'untranslated') walkTexts(v, `${pointer}/${escapePointerSegment(k)}`, found);
}

export function textOf3(t: LocalizedText): string[] {
  return [t.zh, t.en, t.es];
}
