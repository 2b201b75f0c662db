/**
 * The publish gate of the schema studio (docs/studio.md, "The gate"): the one
 * implementation of "may this document replace the one at `file`?", used by the publish
 * and check APIs (server/studio), by `schemas:check` (its text rule and served-route
 * matching) and by the studio's editor as you type. No React and no Node-only import:
 * it runs in the browser too.
 *
 * Rules, in order (each problem has file, JSON pointer and a sentence):
 * 1. the text is JSON, at a path that holds a document (screens, resources, menus);
 * 2. the meta-schema of the document's kind; a screen in an older format is migrated to
 *    the current one first, and the result says so (`migratedFrom`, a warning);
 * 3. every rule of the registry's lint over the effective set with the candidate in place
 *    (bound endpoints served, columns and fields in their resource, authority keys and
 *    element codes known, routes unique…); a problem the candidate causes in another
 *    document (a screen losing its resource's field) counts too;
 * 4. every text has zh, en and es;
 * 5. a screen keeps the id of the document at its file; a new screen lives under
 *    schemas/screens/studio/;
 * 6. a resource document changes its presentation only (titles, descriptions, help, enum
 *    titles, messages, display field, default sort): anything that changes what the
 *    server stores is refused, because data migrations stay code; a new resource is refused.
 * The render check (React, fixture data) is not here: the server runs it in a worker
 * (server/studio/render-check.ts); in the editor, the live preview is that render.
 */
import { buildRegistry, documentTypeOfPath, type DocumentType, type SourceDocument } from './registry.ts';
import { LANGS, type Lang } from './texts.ts';
import type { HttpMethod } from './screen.ts';
import { SCREEN_FORMAT_VERSION } from './screen.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { escapePointerSegment, validateScreenDocument, type SchemaProblem } from './validate.ts';
import { WIDGET_NAMES } from './widget-names.ts';
import { routeShape } from './route-shape.ts';
import type { LintInput } from './lint.ts';
import { localizeLint } from './lint-i18n.ts';
import { describePlace, placeOf, type Place } from './places.ts';
import type { ResourceDocument } from './resource/types.ts';

/**
 * One refusal (or doubt) of the gate: file, JSON pointer into the candidate as written, a
 * sentence in the configurer's language that starts with the place (the block holding the
 * pointer: «列「种植日期」（/columns/3）：…»), and that place.
 */
export type GateProblem = SchemaProblem & { place?: Place };

/** A document of the effective set (bundled overlaid by published), already checked. */
export interface EffectiveDocument {
  file: string;
  type: DocumentType;
  /** Parsed JSON. */
  content: unknown;
}

export interface GateInput {
  file: string;
  /** The candidate as typed (text) or parsed. */
  content: string | unknown;
  /** The effective set the candidate would join (the document now at `file` included, if any). */
  effective: readonly EffectiveDocument[];
  /** Served endpoints (routesFromOpenApi + servedBy); absent: literal endpoints are taken on trust (the browser). */
  served?: LintInput['served'];
  publicPaths?: LintInput['publicPaths'];
  widgetNames?: readonly string[];
  /** Language of the gate's own sentences (the lint rules speak English). */
  lang?: Lang;
  /**
   * The problems of the effective set without the candidate (`baselineProblems`), when the
   * caller keeps them: only problems the candidate adds to other documents are its own.
   */
  baseline?: readonly GateProblem[];
}

export interface GateResult {
  problems: GateProblem[];
  /** The format the candidate was written in, when older than the current one. */
  migratedFrom?: number;
  /** The candidate in the current format (what a publish stores), when it was migrated. */
  migrated?: unknown;
  /** The parsed candidate (migrated when it was), when it parsed. */
  value?: unknown;
}

/** Where new screens made in the studio live (a new menu code's screen). */
export const STUDIO_SCREENS_DIR = 'schemas/screens/studio/';

type Sentence = Record<Lang, string>;
const say = (lang: Lang | undefined, s: Sentence, params: Record<string, string | number> = {}) =>
  s[lang ?? 'en'].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? ''));

const SENTENCES = {
  notJson: { zh: '不是有效的 JSON：{why}', en: 'is not valid JSON: {why}', es: 'no es JSON válido: {why}' },
  notDocument: {
    zh: '不是文档路径：只能是 schemas/screens/…、schemas/resources/… 或 schemas/menus.json',
    en: 'is not the path of a document: schemas/screens/…, schemas/resources/… or schemas/menus.json',
    es: 'no es la ruta de un documento: schemas/screens/…, schemas/resources/… o schemas/menus.json',
  },
  notObject: { zh: '文档必须是 JSON 对象', en: 'a document is a JSON object', es: 'un documento es un objeto JSON' },
  idChanged: {
    zh: '页面 id 不能修改：此文件的页面是「{id}」',
    en: 'a screen keeps its id: the screen of this file is "{id}"',
    es: 'una pantalla conserva su id: la de este archivo es «{id}»',
  },
  newScreenPlace: {
    zh: '新页面只能放在 {dir} 下',
    en: 'a new screen lives under {dir}',
    es: 'una pantalla nueva va en {dir}',
  },
  newScreenFile: {
    zh: '新页面的文件名就是它的 id：此文件的页面 id 应为「{id}」',
    en: 'a new screen’s file is named after its id: the id of this file’s screen is "{id}"',
    es: 'el archivo de una pantalla nueva lleva su id: la id de la pantalla de este archivo es «{id}»',
  },
  idTaken: {
    zh: '页面 id「{id}」已被 {file} 使用',
    en: 'the screen id "{id}" is already used by {file}',
    es: 'la id de pantalla «{id}» ya la usa {file}',
  },
  routeTaken: {
    zh: '路由「{route}」已被页面「{screen}」（{file}）占用，请换一个路由',
    en: 'the route "{route}" is already taken by the screen "{screen}" ({file}): choose another route',
    es: 'la ruta «{route}» ya la ocupa la pantalla «{screen}» ({file}): elija otra ruta',
  },
  newResource: {
    zh: '不能在工作室中新建资源：资源决定服务器存储的数据，数据迁移仍需写代码',
    en: 'a new resource cannot be made in the studio: it changes what the server stores; data migrations stay code',
    es: 'no se crea un recurso en el estudio: cambia lo que guarda el servidor; las migraciones de datos siguen siendo código',
  },
  stores: {
    zh: '会改变服务器存储的数据；数据迁移仍需写代码（工作室只能修改标题、说明、帮助等展示内容）',
    en: 'changes what the server stores; data migrations stay code (the studio changes titles, descriptions, help and other presentation only)',
    es: 'cambia lo que guarda el servidor; las migraciones de datos siguen siendo código (el estudio cambia solo títulos, descripciones, ayuda y otra presentación)',
  },
  migrated: {
    zh: '文档格式 {from} 已先迁移到当前格式 {to}（{steps}），发布的是迁移后的文档',
    en: 'written in format {from}: migrated to the current format {to} first ({steps}); the migrated document is what gets published',
    es: 'escrito en el formato {from}: migrado antes al formato actual {to} ({steps}); se publica el documento migrado',
  },
  textLacks: {
    zh: '文本缺少 {langs}（每个文本都需要中文、英文和西班牙文）',
    en: 'text lacks {langs} (every text needs zh, en and es)',
    es: 'al texto le falta {langs} (cada texto necesita zh, en y es)',
  },
} satisfies Record<string, Sentence>;

/** Keys of a resource document (at any depth) the studio may change: what the console shows, never what the server stores. */
export const RESOURCE_PRESENTATION_KEYS: ReadonlySet<string> = new Set([
  '$schema',
  'revision',
  'title',
  'description',
  'help',
  'displayField',
  'defaultSort',
  'x-title',
  'x-description',
  'x-help',
  'x-enumTitles',
  'x-messages',
  'x-placeholder',
  'x-ui',
]);

/**
 * Every object that looks like a text (has zh, en or es) must have all three, non-empty.
 * Shared with tools/schemas-check.ts.
 */
export function textProblems(node: unknown, pointer: string, file: string, out: SchemaProblem[], lang?: Lang): void {
  if (Array.isArray(node)) {
    node.forEach((x, i) => textProblems(x, `${pointer}/${i}`, file, out, lang));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  // A JSON Schema `properties` object may name its properties zh, en and es (a text's schema): not a text itself.
  if (LANGS.some((l) => l in o) && !pointer.endsWith('/properties')) {
    const missing = LANGS.filter((l) => typeof o[l] !== 'string' || (o[l] as string).trim() === '');
    if (missing.length) out.push({ file, pointer, message: say(lang, SENTENCES.textLacks, { langs: missing.join(', ') }), severity: 'error' });
  }
  for (const [k, v] of Object.entries(o)) textProblems(v, `${pointer}/${escapePointerSegment(k)}`, file, out, lang);
}

/** The API routes of an OpenAPI document, with `{name}` written as `:name`. */
export function routesFromOpenApi(doc: { paths?: Record<string, Record<string, unknown>> }): { method: HttpMethod; path: string }[] {
  const out: { method: HttpMethod; path: string }[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const method of Object.keys(ops)) {
      const m = method.toUpperCase();
      if (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) out.push({ method: m as HttpMethod, path: path.replace(/\{([^}]+)\}/g, ':$1') });
    }
  }
  return out;
}

/** Whether `method path` of a schema is one of `routes` (a literal segment may stand where the server has a parameter). */
export function servedBy(routes: readonly { method: HttpMethod; path: string }[]): (method: HttpMethod, path: string) => boolean {
  const shapes = new Set(routes.map((r) => `${r.method} ${r.path.split('/').map((s) => (s.startsWith(':') ? ':' : s)).join('/')}`));
  return (method, path) => {
    const segs = path.split('/');
    return (
      routes.some((r) => {
        if (r.method !== method) return false;
        const rs = r.path.split('/');
        return rs.length === segs.length && rs.every((x, i) => x === segs[i] || x.startsWith(':') || segs[i].startsWith(':'));
      }) || shapes.has(`${method} ${path}`)
    );
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function looksLikeText(v: unknown): boolean {
  return isPlainObject(v) && LANGS.some((l) => l in v) && Object.keys(v).every((k) => (LANGS as readonly string[]).includes(k) || k === 'untranslated');
}

/** Where `after` differs from `before` outside presentation (texts and RESOURCE_PRESENTATION_KEYS). */
export function storageChanges(before: unknown, after: unknown, pointer = ''): string[] {
  if (looksLikeText(before) && looksLikeText(after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const out: string[] = [];
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (RESOURCE_PRESENTATION_KEYS.has(k)) continue;
      // A text added or taken away where there was none is presentation too.
      if ((!(k in before) && looksLikeText(after[k])) || (!(k in after) && looksLikeText(before[k]))) continue;
      out.push(...storageChanges(before[k], after[k], `${pointer}/${escapePointerSegment(k)}`));
    }
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (before.length !== after.length) return [pointer];
    return before.flatMap((b, i) => storageChanges(b, after[i], `${pointer}/${i}`));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [pointer];
}

const problemKey = (p: GateProblem) => `${p.file}\u0000${p.pointer}\u0000${p.message}`;

function registryProblems(docs: readonly EffectiveDocument[], candidate: EffectiveDocument | null, input: GateInput): SchemaProblem[] {
  const sourceDocs: (SourceDocument & { source: string })[] = [];
  for (const d of docs) {
    if (candidate && d.file === candidate.file) continue;
    sourceDocs.push({ file: d.file, type: d.type, content: d.content, source: 'effective', trusted: true });
  }
  if (candidate) sourceDocs.push({ file: candidate.file, type: candidate.type, content: candidate.content, source: 'effective' });
  // Nothing untrusted: the registry would skip the rules across documents; the baseline needs them.
  const lintAll = !candidate;
  const reg = buildRegistry(
    lintAll ? sourceDocs.map((d) => ({ ...d, trusted: false })) : sourceDocs,
    { widgetNames: input.widgetNames ?? WIDGET_NAMES, publicPaths: input.publicPaths, served: input.served },
  );
  return reg.problems;
}

/**
 * The problems of the effective set as it is (every document checked as untrusted), for
 * `GateInput.baseline`: a caller checking many candidates against one set computes it once.
 */
export function baselineProblems(input: Omit<GateInput, 'file' | 'content' | 'baseline'>): GateProblem[] {
  return registryProblems(input.effective, null, { ...input, file: '', content: null });
}

/** The gate: every problem of the candidate, and its migrated form when it was written in an older format. */
export function gateCandidate(input: GateInput): GateResult {
  const { file, lang } = input;
  const problems: GateProblem[] = [];
  const type = documentTypeOfPath(file);
  if (!type || !/^schemas\/([A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.json$/.test(file)) {
    return { problems: [{ file, pointer: '', message: say(lang, SENTENCES.notDocument), severity: 'error' }] };
  }
  let value: unknown = input.content;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (err) {
      return { problems: [{ file, pointer: '', message: say(lang, SENTENCES.notJson, { why: (err as Error).message }), severity: 'error' }] };
    }
  }
  if (!isPlainObject(value)) return { problems: [{ file, pointer: '', message: say(lang, SENTENCES.notObject), severity: 'error' }] };

  const current = input.effective.find((d) => d.file === file);
  const result: GateResult = { problems, value };

  if (type === 'screen') {
    const validation = validateScreenDocument(value, file);
    if (validation.screen && validation.from !== undefined && validation.from < SCREEN_FORMAT_VERSION) {
      const steps = MIGRATIONS.filter((m) => m.from >= validation.from! && m.to <= SCREEN_FORMAT_VERSION).map((m) => `${m.from}→${m.to}: ${m.summary}`);
      result.migratedFrom = validation.from;
      result.migrated = validation.screen;
      result.value = validation.screen;
      problems.push({ file, pointer: '/formatVersion', message: say(lang, SENTENCES.migrated, { from: validation.from, to: SCREEN_FORMAT_VERSION, steps: steps.join('; ') }), severity: 'warning' });
    }
    const id = (result.value as { id?: unknown }).id;
    const currentId = (current?.content as { id?: unknown } | undefined)?.id;
    if (current && typeof currentId === 'string' && id !== currentId) problems.push({ file, pointer: '/id', message: say(lang, SENTENCES.idChanged, { id: currentId }), severity: 'error' });
    if (!current && !file.startsWith(STUDIO_SCREENS_DIR)) problems.push({ file, pointer: '', message: say(lang, SENTENCES.newScreenPlace, { dir: STUDIO_SCREENS_DIR }), severity: 'error' });
    if (!current && file.startsWith(STUDIO_SCREENS_DIR)) {
      const named = file.slice(STUDIO_SCREENS_DIR.length).replace(/\.json$/, '');
      if (typeof id === 'string' && id !== named) problems.push({ file, pointer: '/id', message: say(lang, SENTENCES.newScreenFile, { id: named }), severity: 'error' });
      const twin = input.effective.find((d) => d.type === 'screen' && d.file !== file && (d.content as { id?: unknown }).id === id);
      if (twin) problems.push({ file, pointer: '/id', message: say(lang, SENTENCES.idTaken, { id: String(id), file: twin.file }), severity: 'error' });
    }
    problems.push(...routesTaken(file, result.value as Record<string, unknown>, input.effective, lang));
  } else if (type === 'resource') {
    if (!current) return { problems: [{ file, pointer: '', message: say(lang, SENTENCES.newResource), severity: 'error' }] };
    for (const pointer of storageChanges(current.content, value)) problems.push({ file, pointer, message: say(lang, SENTENCES.stores), severity: 'error' });
  }

  // Meta-schema and the rules across documents, with the candidate in place of the document at its file.
  const baseline = new Set((input.baseline ?? baselineProblems(input)).map(problemKey));
  const found = registryProblems(input.effective, { file, type, content: value }, input);
  // Said above in the caller's language: a route or an id another screen holds.
  const own = found.filter((p) => p.file === file && !/ is already the route of | is also the id of /.test(p.message));
  // The rules speak English (schemas:check): the configurer reads them in their language.
  const resources = resourceLookup(input.effective, file, type === 'resource' ? value : null);
  const spoken = (p: GateProblem): GateProblem => ({ ...p, message: localizeLint(p.message, lang ?? 'en', resources) });
  problems.push(...own.map(spoken));
  // What the candidate breaks elsewhere (a screen losing its resource's field), unless the
  // candidate is refused itself: then the others only echo it ("whose document is invalid").
  if (!refuses(own) && !refuses(problems)) for (const p of found) if (p.file !== file && !baseline.has(problemKey(p))) problems.push(spoken(p));
  // A text the meta-schema already refused need not be reported twice.
  const refused = new Set(found.filter((p) => p.file === file).map((p) => p.pointer.replace(/\/(zh|en|es)$/, '')));
  const texts: GateProblem[] = [];
  textProblems(result.value, '', file, texts, lang);
  problems.push(...texts.filter((p) => !refused.has(p.pointer)));

  const seen = new Set<string>();
  result.problems = problems
    .filter((p) => {
      const k = problemKey(p);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .map((p) => placed(p, p.file === file ? result.value : input.effective.find((d) => d.file === p.file)?.content, resources, lang ?? 'en'));
  return result;
}

/** Resource documents by name, from the set with the candidate (a resource) in place. */
function resourceLookup(effective: readonly EffectiveDocument[], file: string, candidate: unknown): (name: string) => ResourceDocument | undefined {
  const byName = new Map<string, ResourceDocument>();
  for (const d of effective) if (d.type === 'resource' && d.file !== file) byName.set((d.content as ResourceDocument).name, d.content as ResourceDocument);
  if (isPlainObject(candidate) && typeof candidate.name === 'string') byName.set(candidate.name, candidate as unknown as ResourceDocument);
  return (name) => byName.get(name);
}

/** The problem named by its place: «列「种植日期」（/columns/3）：…», with the place kept beside. */
export function placed(p: GateProblem, doc: unknown, resources: (name: string) => ResourceDocument | undefined, lang: Lang): GateProblem {
  const place = placeOf(doc, p.pointer, resources, lang);
  if (!place) return p;
  return { ...p, place, message: `${describePlace(place, lang)}${lang === 'zh' ? '：' : ': '}${p.message}` };
}

/** The routes (`/route`, `/aliases/i/route`) of a candidate screen that another screen of the set already serves. */
function routesTaken(file: string, screen: Record<string, unknown>, effective: readonly EffectiveDocument[], lang: Lang | undefined): GateProblem[] {
  const claims: { route: string; pointer: string }[] = [];
  if (typeof screen.route === 'string') claims.push({ route: screen.route, pointer: '/route' });
  if (Array.isArray(screen.aliases))
    screen.aliases.forEach((a, i) => {
      const route = (a as { route?: unknown } | null)?.route;
      if (typeof route === 'string') claims.push({ route, pointer: `/aliases/${i}/route` });
    });
  if (!claims.length) return [];
  const taken = new Map<string, { screen: string; file: string }>();
  for (const d of effective) {
    if (d.type !== 'screen' || d.file === file) continue;
    const c = d.content as { id?: string; route?: unknown; aliases?: unknown };
    const routes = [c.route, ...(Array.isArray(c.aliases) ? c.aliases.map((a) => (a as { route?: unknown } | null)?.route) : [])];
    for (const r of routes) if (typeof r === 'string') taken.set(routeShape(r), { screen: c.id ?? d.file, file: d.file });
  }
  const out: GateProblem[] = [];
  for (const c of claims) {
    const holder = taken.get(routeShape(c.route));
    if (holder) out.push({ file, pointer: c.pointer, message: say(lang, SENTENCES.routeTaken, { route: c.route, screen: holder.screen, file: holder.file }), severity: 'error' });
  }
  return out;
}

/** The gate's problems (errors refuse a publish; a warning says, for one, that the document was migrated). */
export function checkCandidate(input: GateInput): GateProblem[] {
  return gateCandidate(input).problems;
}

/** Whether any problem refuses the publish. */
export function refuses(problems: readonly GateProblem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
