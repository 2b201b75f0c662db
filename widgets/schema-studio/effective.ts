/**
 * The effective set of documents as the console holds them (bundled + published: the
 * registry the widget is given), and the small helpers every view shares. Light on purpose:
 * the checks (check.ts) load with the editor, translations and menus views only.
 */
import type { DocumentType, SchemaRegistry } from '../../runtime/schema/registry-core.ts';
import type { GateProblem } from './api.ts';

export interface EffectiveDocument {
  file: string;
  type: DocumentType;
  content: unknown;
}

/** Every document of the registry, as parsed content (screens in the current format). */
export function effectiveDocuments(registry: SchemaRegistry): EffectiveDocument[] {
  const out: EffectiveDocument[] = [];
  if (registry.menus) out.push({ file: registry.menus.file, type: 'menus', content: registry.menus.doc });
  for (const r of registry.resources.values()) out.push({ file: r.file, type: 'resource', content: r.doc });
  for (const s of registry.screens.values()) out.push({ file: s.file, type: 'screen', content: s.screen });
  return out;
}

export interface DraftCheck {
  problems: GateProblem[];
  /** The parsed draft, when it parsed. */
  value?: unknown;
  /** The registry with the draft in place, when the draft has no error (for the preview). */
  registry?: SchemaRegistry;
  ms: number;
}

/** The document of a route's `:kind/:name` (screen id, resource name, or "menus"). */
export function fileOf(registry: SchemaRegistry, kind: string | undefined, name: string | undefined): string | null {
  if (kind === 'menus') return registry.menus?.file ?? 'schemas/menus.json';
  if (!name) return null;
  // A screen not in the set yet: a new one (the configurer's draft), named after its id.
  if (kind === 'screen') return registry.screens.get(name)?.file ?? (/^[a-z][A-Za-z0-9]{2,59}$/.test(name) ? `schemas/screens/studio/${name}.json` : null);
  if (kind === 'resource') return registry.resources.get(name)?.file ?? null;
  return null;
}

/** The route parameters of a document's editor. */
export function editRoute(d: { type: DocumentType; id: string }): string {
  return `/studio/edit/${d.type}/${encodeURIComponent(d.type === 'menus' ? 'menus' : d.id)}`;
}

/** Text of a document as the editor shows it. */
export function documentText(content: unknown): string {
  return typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`;
}
