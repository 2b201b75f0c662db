/**
 * The schema registry without its checks: indexing, route claims and the rules for
 * overriding sources, with the checks of each document handed in (`DocumentChecks`,
 * registry.ts holds the full set). Documents of a trusted source (the bundled ones,
 * already checked by `schemas:check` at build time) are taken as they are, so the console
 * builds its registry at start without loading or running any validation (issue 10).
 *
 * Everything here is free of ajv and of the meta-schemas: the browser's start imports it.
 */
import type { MenuDocument } from './menus.ts';
import type { ResourceDocument } from './resource.ts';
import { SCREEN_FORMAT_VERSION, screenRoutes, type Screen } from './screen.ts';
import type { LintInput } from './lint.ts';
import { routeShape } from './route-shape.ts';
import type { SchemaProblem, ScreenValidation } from './validate.ts';

export type DocumentType = 'screen' | 'resource' | 'menus';

export interface SourceDocument {
  /** Where the document comes from: a repository path ("schemas/screens/x.json") or a store key. */
  file: string;
  type: DocumentType;
  /** The parsed JSON, or its text (parsed here, so a syntax error is reported like any other). */
  content: unknown;
  /**
   * Checked already (by schemas:check at build time): taken as it is, without meta-schema
   * validation or the cross-document rules. A trusted screen in an older format is still
   * validated on its way through the migrations.
   */
  trusted?: boolean;
}

/** A set of documents. Later sources override earlier ones document by document. */
export interface DocumentSource {
  readonly name: string;
  /** Its documents were checked at build time (SourceDocument.trusted). */
  readonly trusted?: boolean;
  documents(): Promise<SourceDocument[]> | SourceDocument[];
}

/** How each kind of document is checked; registry.ts has the full set (ajv-compiled ahead of time). */
export interface DocumentChecks {
  screen(value: unknown, file: string): ScreenValidation;
  resource(value: unknown): { pointer: string; message: string }[];
  menus(value: unknown, file: string): { file: string; pointer: string; message: string }[];
  lintScreens(input: LintInput): SchemaProblem[];
  lintResources(resources: { doc: ResourceDocument; file: string; source: string }[], menus: MenuDocument | null): SchemaProblem[];
  widgetNames: readonly string[];
}

/** The kind of document a repository path holds, or null for any other file. */
export function documentTypeOfPath(path: string): DocumentType | null {
  const p = path.replace(/\\/g, '/').replace(/^(\.\.?\/)+/, '').replace(/^\//, '');
  if (!p.endsWith('.json')) return null;
  if (/(^|\/)schemas\/menus\.json$/.test(p)) return 'menus';
  if (/(^|\/)schemas\/resources\//.test(p)) return 'resource';
  if (/(^|\/)schemas\/screens\//.test(p)) return 'screen';
  return null;
}

export interface LoadedScreen {
  screen: Screen;
  file: string;
  source: string;
  /** Format the document was written in (the screen itself is always current). */
  from: number;
}

export interface BrokenScreen {
  file: string;
  source: string;
  /** What could be read from the invalid document, to put its error panel in place. */
  id?: string;
  routes: { route: string; authority?: string }[];
  problems: SchemaProblem[];
}

export interface RouteEntry {
  /** The pattern, e.g. "/bigData-kms/addPlantRules/:operate/:id". */
  route: string;
  authority: string;
  screen: LoadedScreen;
}

export interface RouteMatch extends RouteEntry {
  params: Record<string, string>;
}

export interface RegistryOptions {
  /** Run the rules across documents (default true). */
  lint?: boolean;
  widgetNames?: readonly string[];
  publicPaths?: LintInput['publicPaths'];
  served?: LintInput['served'];
}

export class SchemaRegistry {
  readonly screens = new Map<string, LoadedScreen>();
  /** By route pattern, aliases included. */
  readonly routes = new Map<string, RouteEntry>();
  readonly resources = new Map<string, { doc: ResourceDocument; file: string; source: string }>();
  menus: { doc: MenuDocument; file: string; source: string } | null = null;
  readonly broken: BrokenScreen[] = [];
  /** Every problem of every document, errors and warnings. */
  readonly problems: SchemaProblem[] = [];

  screen(id: string): Screen | undefined {
    return this.screens.get(id)?.screen;
  }

  resource(name: string): ResourceDocument | undefined {
    return this.resources.get(name)?.doc;
  }

  get errors(): SchemaProblem[] {
    return this.problems.filter((p) => p.severity === 'error');
  }

  /** The route entry a URL path matches, static segments winning over parameters. */
  match(pathname: string): RouteMatch | null {
    const segs = pathname.split('/').filter(Boolean).map(safeDecode);
    let best: { entry: RouteEntry; params: Record<string, string>; score: number } | null = null;
    for (const entry of this.routes.values()) {
      const m = matchPattern(entry.route, segs);
      if (m && (!best || m.score > best.score)) best = { entry, params: m.params, score: m.score };
    }
    return best ? { ...best.entry, params: best.params } : null;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function matchPattern(pattern: string, segs: string[]): { params: Record<string, string>; score: number } | null {
  const parts = pattern.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  let score = 0;
  let i = 0;
  for (const part of parts) {
    const seg = segs[i];
    if (part.startsWith(':')) {
      const optional = part.endsWith('?');
      const name = part.slice(1, optional ? -1 : undefined);
      if (seg === undefined) {
        if (optional) continue;
        return null;
      }
      params[name] = seg;
      score += 1;
    } else {
      if (seg === undefined || seg.toLowerCase() !== part.toLowerCase()) return null;
      score += 3;
    }
    i++;
  }
  return i === segs.length ? { params, score } : null;
}

function parse(doc: SourceDocument): { value?: unknown; problem?: SchemaProblem } {
  if (typeof doc.content !== 'string') return { value: doc.content };
  try {
    return { value: JSON.parse(doc.content) };
  } catch (err) {
    return { problem: { file: doc.file, pointer: '', message: `is not valid JSON: ${(err as Error).message}`, severity: 'error' } };
  }
}

/** Whatever id and routes an invalid screen document still shows. */
function salvage(value: unknown): Pick<BrokenScreen, 'id' | 'routes'> {
  if (value === null || typeof value !== 'object') return { routes: [] };
  const v = value as Record<string, unknown>;
  const id = typeof v.id === 'string' ? v.id : undefined;
  const authority = typeof v.authority === 'string' ? v.authority : typeof v.auth === 'string' ? v.auth : undefined;
  const routes: BrokenScreen['routes'] = [];
  const main = typeof v.route === 'string' ? v.route : typeof v.path === 'string' ? v.path : undefined;
  if (main?.startsWith('/')) routes.push({ route: main, authority });
  if (Array.isArray(v.aliases)) {
    for (const a of v.aliases as Record<string, unknown>[]) {
      if (a && typeof a.route === 'string' && a.route.startsWith('/'))
        routes.push({ route: a.route, authority: typeof a.authority === 'string' ? a.authority : authority });
    }
  }
  return { id, routes };
}

function needChecks(checks: DocumentChecks | null, file: string): DocumentChecks {
  if (!checks) throw new Error(`${file} needs checking, but the registry was assembled without checks (registry.ts has them)`);
  return checks;
}

/**
 * Builds a registry from documents already gathered, each tagged with its source's name.
 * `checks` may be null when every document is trusted and current.
 */
export function assembleRegistry(docs: (SourceDocument & { source: string })[], checks: DocumentChecks | null, opts: RegistryOptions = {}): SchemaRegistry {
  const reg = new SchemaRegistry();
  // Later sources override earlier ones; within one source a second document with the same id is an error.
  const screenCandidates = new Map<string, { screen: Screen; file: string; source: string; from: number }>();
  const resourceCandidates = new Map<string, { doc: ResourceDocument; file: string; source: string }>();
  const invalidResources = new Set<string>();

  for (const d of docs) {
    const { value, problem } = parse(d);
    if (problem) {
      reg.problems.push(problem);
      if (d.type === 'screen') reg.broken.push({ file: d.file, source: d.source, routes: [], problems: [problem] });
      continue;
    }
    if (d.type === 'menus') {
      const found = d.trusted ? [] : needChecks(checks, d.file).menus(value, d.file).map((p) => ({ ...p, severity: 'error' as const }));
      reg.problems.push(...found);
      if (!found.length) {
        if (reg.menus && reg.menus.source === d.source)
          reg.problems.push({ file: d.file, pointer: '', message: `a second menus document; ${reg.menus.file} is used`, severity: 'error' });
        else reg.menus = { doc: value as MenuDocument, file: d.file, source: d.source };
      }
    } else if (d.type === 'resource') {
      const found = d.trusted ? [] : needChecks(checks, d.file).resource(value).map((p) => ({ file: d.file, ...p, severity: 'error' as const }));
      reg.problems.push(...found);
      if (found.length) {
        const name = (value as { name?: unknown } | null)?.name;
        if (typeof name === 'string') invalidResources.add(name);
        continue;
      }
      const doc = value as ResourceDocument;
      const prev = resourceCandidates.get(doc.name);
      if (prev && prev.source === d.source) {
        reg.problems.push({ file: d.file, pointer: '/name', message: `"${doc.name}" is also the name of ${prev.file}`, severity: 'error' });
        continue;
      }
      resourceCandidates.set(doc.name, { doc, file: d.file, source: d.source });
    } else {
      const current = d.trusted && (value as { formatVersion?: unknown } | null)?.formatVersion === SCREEN_FORMAT_VERSION;
      const { screen, from, problems } = current
        ? { screen: value as Screen, from: SCREEN_FORMAT_VERSION, problems: [] }
        : needChecks(checks, d.file).screen(value, d.file);
      reg.problems.push(...problems);
      if (!screen) {
        const salvaged = salvage(value);
        // A broken revision replaces the earlier one all the same: its panel says what is wrong.
        if (salvaged.id !== undefined && screenCandidates.get(salvaged.id)?.source !== d.source) screenCandidates.delete(salvaged.id);
        reg.broken.push({ file: d.file, source: d.source, ...salvaged, problems });
        continue;
      }
      const prev = screenCandidates.get(screen.id);
      if (prev && prev.source === d.source) {
        const p: SchemaProblem = { file: d.file, pointer: '/id', message: `"${screen.id}" is also the id of ${prev.file}`, severity: 'error' };
        reg.problems.push(p);
        reg.broken.push({ file: d.file, source: d.source, ...salvage(value), problems: [p] });
        continue;
      }
      screenCandidates.set(screen.id, { screen, file: d.file, source: d.source, from: from ?? 0 });
    }
  }
  for (const [name, r] of resourceCandidates) reg.resources.set(name, r);

  // Each route belongs to one screen: a later claim is refused.
  const shapes = new Map<string, { route: string; file: string }>();
  const refused = new Map<string, SchemaProblem[]>();
  for (const loaded of screenCandidates.values()) {
    const own: SchemaProblem[] = [];
    screenRoutes(loaded.screen).forEach((r, i) => {
      const shape = routeShape(r.route);
      const prev = shapes.get(shape);
      const pointer = loaded.screen.route && i === 0 ? '/route' : `/aliases/${loaded.screen.route ? i - 1 : i}/route`;
      if (prev) own.push({ file: loaded.file, pointer, message: `"${r.route}" is already the route of ${prev.file} ("${prev.route}")`, severity: 'error' });
      else shapes.set(shape, { route: r.route, file: loaded.file });
    });
    if (own.length) refused.set(loaded.screen.id, own);
  }

  // The rules across documents run unless every document was checked at build time.
  const lint = opts.lint !== false && docs.some((d) => !d.trusted);
  const lintProblems = lint
    ? needChecks(checks, 'the rules across documents').lintScreens({
        screens: [...screenCandidates.values()],
        resources: new Map([...reg.resources].map(([n, r]) => [n, r.doc])),
        menus: reg.menus?.doc ?? null,
        widgetNames: opts.widgetNames ?? checks!.widgetNames,
        publicPaths: opts.publicPaths,
        served: opts.served,
        invalidResources,
      })
    : [];
  reg.problems.push(...lintProblems);
  if (lint) reg.problems.push(...checks!.lintResources([...reg.resources.values()], reg.menus?.doc ?? null));
  const byFile = new Map<string, SchemaProblem[]>();
  for (const p of [...lintProblems, ...[...refused.values()].flat()]) {
    if (p.severity !== 'error') continue;
    byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  }
  for (const p of [...refused.values()].flat()) reg.problems.push(p);

  for (const loaded of screenCandidates.values()) {
    const errors = byFile.get(loaded.file);
    if (errors?.length) {
      reg.broken.push({
        file: loaded.file,
        source: loaded.source,
        id: loaded.screen.id,
        routes: refused.has(loaded.screen.id) ? [] : screenRoutes(loaded.screen),
        problems: errors,
      });
      continue;
    }
    reg.screens.set(loaded.screen.id, loaded);
    for (const r of screenRoutes(loaded.screen)) reg.routes.set(r.route, { route: r.route, authority: r.authority, screen: loaded });
  }
  // A broken document replaced by a valid one from a later source no longer needs a panel,
  // and a broken one never takes a route from a valid screen.
  const validShapes = new Set([...reg.routes.keys()].map(routeShape));
  for (let i = reg.broken.length - 1; i >= 0; i--) {
    const b = reg.broken[i];
    const now = b.id !== undefined ? reg.screens.get(b.id) : undefined;
    if (now && now.source !== b.source) reg.broken.splice(i, 1);
    else b.routes = b.routes.filter((r) => !validShapes.has(routeShape(r.route)));
  }
  return reg;
}

/** Every source's documents in order, each tagged with its source (and whether that source is trusted). */
export async function gatherDocuments(sources: DocumentSource[]): Promise<(SourceDocument & { source: string })[]> {
  const docs: (SourceDocument & { source: string })[] = [];
  for (const s of sources) for (const d of await s.documents()) docs.push({ ...d, source: s.name, ...(s.trusted ? { trusted: true } : {}) });
  return docs;
}

/** One line per problem: `file#/pointer  message`. */
export function formatProblems(problems: SchemaProblem[]): string {
  return problems.map((p) => `${p.severity === 'error' ? 'error  ' : 'warning'} ${p.file}#${p.pointer}  ${p.message}`).join('\n');
}
