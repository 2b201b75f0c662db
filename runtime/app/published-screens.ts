/**
 * The console's screens from the bundled documents overlaid by those published from the
 * schema studio (docs/studio.md, "Push"). Published documents come from the server, not
 * from the build, so they are untrusted: the meta-schema checks (FULL_CHECKS, with ajv's
 * compiled validators) load on the first published set only, never at a plain start.
 * The rules across documents are not run again here: the server's publish gate ran them
 * over the same effective set.
 */
import { bundledSource } from '../schema/bundled.ts';
import { assembleRegistry, gatherDocuments, type DocumentType, type SchemaRegistry, type SourceDocument } from '../schema/registry-core.ts';
import type { DataProvider } from '../services/contract.ts';
import type { EffectiveDocument } from '../schema/gate.ts';
import type { ScreenRoute } from '../shell/screen-route.ts';
import { bundledRegistry } from './bundled-screens.ts';
import { schemaScreenRoutes } from './schema-screens.ts';

export interface PublishedSet {
  generation: number;
  documents: { file: string; type: DocumentType; revision: number; content: unknown }[];
}

export interface LiveScreens {
  generation: number;
  registry: SchemaRegistry;
  routes: ScreenRoute[];
}

/** The published set from the server (the named call publishedSchemas). */
export async function fetchPublished(data: DataProvider): Promise<PublishedSet> {
  const reply = await data.call<PublishedSet>('publishedSchemas', { quiet: true });
  return reply.data;
}

/** The registry of bundled + published documents; the bundled registry alone when nothing is published. */
export async function registryWith(published: PublishedSet): Promise<SchemaRegistry> {
  if (!published.documents.length) return bundledRegistry();
  const bundled = await gatherDocuments([bundledSource]);
  const overlays: (SourceDocument & { source: string })[] = published.documents.map((d) => ({ file: d.file, type: d.type, content: d.content, source: 'published' }));
  const { FULL_CHECKS } = await import('../schema/registry.ts');
  const registry = assembleRegistry([...bundled, ...overlays], FULL_CHECKS, { lint: false });
  if (registry.errors.length) console.error(`[schemas] published documents with problems:\n${registry.errors.map((p) => `${p.file}#${p.pointer} ${p.message}`).join('\n')}`);
  return registry;
}

/**
 * The effective set as the gate wants it (runtime/schema/gate.ts, GateInput.effective):
 * bundled overlaid by published, parsed. For the studio's editor, checking as you type.
 */
export async function effectiveDocuments(published: PublishedSet): Promise<EffectiveDocument[]> {
  const byFile = new Map<string, EffectiveDocument>();
  for (const d of await gatherDocuments([bundledSource]))
    byFile.set(d.file, { file: d.file, type: d.type, content: typeof d.content === 'string' ? JSON.parse(d.content) : d.content });
  for (const p of published.documents) byFile.set(p.file, { file: p.file, type: p.type, content: p.content });
  return [...byFile.values()];
}

export async function liveScreens(data: DataProvider): Promise<LiveScreens> {
  const published = await fetchPublished(data);
  const registry = await registryWith(published);
  return { generation: published.generation, registry, routes: schemaScreenRoutes(registry) };
}

/**
 * Ids of the screens that show differently between two registries: their document changed
 * (or came or went), or the resource document they show did (its titles, say).
 */
export function changedScreens(before: SchemaRegistry, after: SchemaRegistry): Set<string> {
  const out = new Set<string>();
  const resources = new Set<string>();
  for (const name of new Set([...before.resources.keys(), ...after.resources.keys()]))
    if (JSON.stringify(before.resource(name)) !== JSON.stringify(after.resource(name))) resources.add(name);
  for (const [id, loaded] of after.screens) {
    const resource = (loaded.screen as { resource?: string }).resource;
    if (JSON.stringify(before.screens.get(id)?.screen) !== JSON.stringify(loaded.screen) || (resource && resources.has(resource))) out.add(id);
  }
  for (const id of before.screens.keys()) if (!after.screens.has(id)) out.add(id);
  return out;
}
