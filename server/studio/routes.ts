/**
 * HTTP of the schema studio (docs/studio.md; the contract with the studio screens is
 * /work/notes/studio-contract.md): the published set and its events for every console,
 * and the studio's documents, drafts, check, publish, revisions and rollback under the
 * menu `studioDocuments` (publish and rollback need its element codes).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { typedRoutes, type TypedApp } from '../http/typed-routes.ts';
import { business, notFound, ok, Status } from '../http/envelope.ts';
import { caller, requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { okArray, okObject } from '../admin/schemas.ts';
import { audit } from '../audit/log.ts';
import { syncMenus } from '../seed/menus.ts';
import { documentTypeOfPath } from '../../runtime/schema/registry-core.ts';
import { baselineProblems, gateCandidate, refuses, routesFromOpenApi, servedBy, type GateProblem } from '../../runtime/schema/gate.ts';
import { describeChanges } from '../../runtime/schema/diff.ts';
import { screenRoutes, type Screen } from '../../runtime/schema/screen.ts';
import type { MenuDocument } from '../../runtime/schema/menus.ts';
import { productProfile } from '../../product/profile.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { PublishedMeanwhile, SchemaStore, type EffectiveSet } from './store.ts';
import { PublishHub } from './push.ts';
import type { RenderCheck } from './render-check.ts';
import { msg } from './messages.ts';

const tags = ['studio'];
export const STUDIO_MENU = 'studioDocuments';

// Path segments never start with a dot: no "..", no hidden files (the file is also a path on disk for snapshots:published).
const file = { type: 'string', minLength: 9, maxLength: 200, pattern: '^schemas/([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\\.json$' } as const;
const revision = { type: 'integer', minimum: 0, maximum: 2147483647 } as const;
const content = { type: 'string', minLength: 1, maxLength: 1_000_000 } as const;
const comment = { type: 'string', maxLength: 500 } as const;
const fileQuery = { type: 'object', additionalProperties: false, required: ['file'], properties: { file } } as const;

export interface StudioOptions {
  store?: SchemaStore;
  renderCheck?: RenderCheck;
  pollMs?: number;
}

export const studioRoutes: FastifyPluginAsync<StudioOptions> = async (plain, opts) => {
  const app = typedRoutes(plain);
  const store = opts.store ?? new SchemaStore();
  const hub = new PublishHub(app.db, { pollMs: opts.pollMs, redisUrl: process.env.REDIS_URL || undefined });
  await hub.start();
  app.addHook('onClose', async () => hub.stop());
  const renderCheck = opts.renderCheck ?? (await import('./render-check.ts')).defaultRenderCheck();
  app.addHook('onClose', async () => renderCheck.close());
  const gate = new Gate(plain, store);
  registerConsoleRoutes(app, store, hub);
  registerStudioReads(app, store, renderCheck);
  registerStudioWrites(app, store, hub, gate, renderCheck);
};

/** The gate bound to this server: its served routes, its effective set, the problems already there. */
class Gate {
  private served: ReturnType<typeof servedBy> | null = null;
  private baseline: { generation: number; problems: GateProblem[] } | null = null;

  constructor(
    private readonly app: FastifyInstance,
    private readonly store: SchemaStore,
  ) {}

  private servedFn() {
    if (!this.served) {
      const doc = (this.app as unknown as { swagger(): { paths?: Record<string, Record<string, unknown>> } }).swagger();
      this.served = servedBy(routesFromOpenApi(doc));
    }
    return this.served;
  }

  async check(db: Queryable, file: string, text: string, lang: Lang) {
    const effective = await this.store.effective(db);
    const common = { effective: effective.documents, served: this.servedFn(), publicPaths: productProfile, lang };
    if (this.baseline?.generation !== effective.generation) this.baseline = { generation: effective.generation, problems: baselineProblems(common) };
    return { effective, result: gateCandidate({ ...common, file, content: text, baseline: this.baseline.problems }) };
  }
}

type FastifyInstance = import('fastify').FastifyInstance;
type Queryable = import('../db/database.ts').Queryable;

function registerConsoleRoutes(app: TypedApp, store: SchemaStore, hub: PublishHub) {
  app.get(
    '/schemas/published',
    { schema: { tags, summary: 'The documents published from the studio (overlays of the bundled schemas), with the generation; any logged-in user', response: okObject() } },
    async (req) => {
      caller(req);
      const set = await store.effective(app.db);
      return ok({
        generation: set.generation,
        documents: [...set.published.values()].map((p) => ({ file: p.file, type: p.type, revision: p.revision, content: p.content })),
      });
    },
  );

  app.get(
    '/schemas/events',
    {
      schema: {
        tags,
        summary: 'Server-sent events: `hello` {generation} on connecting, then `published` {generation, file, revision} on every publish of any instance; a comment ping every 25 s. Any logged-in user',
      },
    },
    async (req, reply) => {
      caller(req);
      openEventStream(req, reply, hub);
    },
  );
}

/**
 * The SSE stream, written on the raw socket: hijacked, so neither @fastify/compress (which
 * would buffer the events) nor the serializer touches it; helmet's headers set so far are
 * copied over.
 */
function openEventStream(req: FastifyRequest, reply: FastifyReply, hub: PublishHub) {
  reply.hijack();
  const headers: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string | number | string[];
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies (nginx) must not buffer the stream either.
    'x-accel-buffering': 'no',
  });
  // The first event says where this server is: a console reconnecting after a drop
  // compares it with what it has and fetches the set again if it missed a publish.
  void hub.currentGeneration().then((generation) => reply.raw.write(`event: hello\ndata: ${JSON.stringify({ generation })}\n\n`));
  const stop = hub.listen((event) => {
    reply.raw.write(`event: published\ndata: ${JSON.stringify(event)}\n\n`);
  });
  const ping = setInterval(() => reply.raw.write(': ping\n\n'), 25_000);
  ping.unref();
  const close = () => {
    clearInterval(ping);
    stop();
  };
  req.raw.on('close', close);
  reply.raw.on('close', close);
}

/** The menu section holding the entry `code` (a section is its own). */
function sectionOf(menus: MenuDocument | null, code: string | undefined): string | null {
  if (!menus || !code) return null;
  for (const s of menus.menus) if (s.code === code || s.children.some((c) => c.code === code)) return s.code;
  return null;
}

function describe(doc: { file: string; type: string; content: unknown }, menus: MenuDocument | null) {
  const c = doc.content as Record<string, unknown>;
  if (doc.type === 'screen') {
    const s = c as unknown as Screen;
    return { id: s.id ?? null, title: s.title ?? null, routes: s.route || s.aliases ? screenRoutes(s).map((r) => r.route) : [], section: sectionOf(menus, s.authority) };
  }
  if (doc.type === 'resource') return { id: (c.name as string) ?? null, title: c.title ?? null, routes: [], section: sectionOf(menus, c.authority as string) };
  return { id: 'menus', title: { zh: '菜单', en: 'Menus', es: 'Menús' }, routes: [], section: null };
}

function registerStudioReads(app: TypedApp, store: SchemaStore, renderCheck: RenderCheck) {
  app.get(
    '/studio/documents',
    { schema: { tags, summary: 'Every document of the effective set with its status (bundled, published, new), revision and whether the caller has a draft of it', response: okArray() } },
    async (req) => {
      const me = requireCan(req, STUDIO_MENU);
      // A configurer opening the studio will check and publish soon: the render worker starts now.
      void renderCheck.warm?.().catch(() => undefined);
      const set = await store.effective(app.db);
      const drafts = await store.draftFiles(app.db, me.id);
      const menus = (set.documents.find((d) => d.type === 'menus')?.content ?? null) as MenuDocument | null;
      const bundled = store.bundled();
      const docs = set.documents.map((d) => {
        const p = set.published.get(d.file);
        return {
          file: d.file,
          type: d.type,
          ...describe(d, menus),
          status: p ? (bundled.has(d.file) ? 'published' : 'new') : 'bundled',
          revision: p?.revision ?? 0,
          draft: drafts.has(d.file),
          updatedAt: p?.at ?? null,
          updatedBy: p?.author ?? null,
        };
      });
      docs.sort((a, b) => a.file.localeCompare(b.file));
      return ok(docs);
    },
  );

  app.get(
    '/studio/document',
    { schema: { tags, summary: 'One document: its bundled content, latest published revision and the caller’s own draft', querystring: fileQuery, response: okObject() } },
    async (req) => {
      const me = requireCan(req, STUDIO_MENU);
      // Opened in the editor (often straight from a link, not from the list): a publish follows.
      void renderCheck.warm?.().catch(() => undefined);
      const f = req.query.file;
      const type = documentTypeOfPath(f);
      const bundled = store.bundled().get(f) ?? null;
      const published = await store.latest(app.db, f);
      const draft = await store.draft(app.db, me.id, f);
      if (!type || (!bundled && !published && !draft)) throw notFound(msg['studio.noDocument']);
      return ok({
        file: f,
        type,
        revision: published?.revision ?? 0,
        bundled: bundled?.content ?? null,
        published: published ? { revision: published.revision, content: published.content, author: published.author, at: published.at, comment: published.comment } : null,
        draft: draft ? { content: draft.content, baseRevision: draft.baseRevision, savedAt: draft.savedAt } : null,
      });
    },
  );

  app.get(
    '/studio/revisions',
    { schema: { tags, summary: 'The revisions of a document, newest first; revision 0 is the bundled document', querystring: fileQuery, response: okArray() } },
    async (req) => {
      requireCan(req, STUDIO_MENU);
      return ok(await store.revisions(app.db, req.query.file));
    },
  );

  app.get(
    '/studio/revision',
    {
      schema: {
        tags,
        summary: 'The content of one revision of a document (0 = bundled)',
        querystring: { type: 'object', additionalProperties: false, required: ['file', 'revision'], properties: { file, revision } },
        response: okObject(),
      },
    },
    async (req) => {
      requireCan(req, STUDIO_MENU);
      const found = await store.revision(app.db, req.query.file, req.query.revision);
      if (!found) throw notFound(msg['studio.noRevision']);
      return ok({ file: req.query.file, ...found.info, content: found.content });
    },
  );
}

/** 40001 naming every refusing problem of the gate as `<file>#<pointer>`. */
function refuseProblems(problems: GateProblem[]) {
  const errors = problems.filter((p) => p.severity === 'error').map((p) => ({ field: `${p.file}#${p.pointer}`, message: p.message }));
  const detail = errors
    .slice(0, 3)
    .map((e) => `${e.field} ${e.message}`)
    .join('; ');
  return business(msg['studio.refused'], { detail: errors.length > 3 ? `${detail}; …` : detail }, errors);
}

function registerStudioWrites(app: TypedApp, store: SchemaStore, hub: PublishHub, gate: Gate, renderCheck: RenderCheck) {
  app.put(
    '/studio/draft',
    {
      schema: {
        tags,
        summary: 'Saves the caller’s own draft of a document (private to its author; audited with its diff against the base revision)',
        body: { type: 'object', additionalProperties: false, required: ['file', 'content', 'baseRevision'], properties: { file, content, baseRevision: revision } },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, STUDIO_MENU);
      const { file: f, content: text, baseRevision } = req.body;
      if (!documentTypeOfPath(f)) throw notFound(msg['studio.noDocument']);
      const base = await store.revision(app.db, f, baseRevision);
      const savedAt = await app.db.transaction(async (tx) => {
        const at = await store.saveDraft(tx, me.id, f, text, baseRevision);
        await audit(tx, req, { action: 'studio.draft', resource: 'schemas', recordId: f, changes: { baseRevision, diff: diffOrNote(base?.content ?? null, text) } });
        return at;
      });
      return ok({ savedAt });
    },
  );

  app.delete(
    '/studio/draft',
    { schema: { tags, summary: 'Drops the caller’s own draft of a document', querystring: fileQuery, response: okObject() } },
    async (req) => {
      const me = requireCan(req, STUDIO_MENU);
      if (!(await store.deleteDraft(app.db, me.id, req.query.file))) throw notFound(msg['studio.noDraft']);
      return ok({});
    },
  );

  app.post(
    '/studio/check',
    {
      schema: {
        tags,
        summary: 'Runs the publish gate (meta-schema, every schemas:check rule over the effective set, zh/en/es texts, presentation-only resources, render with fixture data) on a text; nothing is stored',
        body: { type: 'object', additionalProperties: false, required: ['file', 'content'], properties: { file, content } },
        response: okObject(),
      },
    },
    async (req) => {
      requireCan(req, STUDIO_MENU);
      const { problems, migrated, migratedFrom } = await runGate(app, gate, renderCheck, req.body.file, req.body.content, req.lang);
      return ok({ problems, ...(migratedFrom !== undefined ? { migratedFrom, migrated } : {}) });
    },
  );

  const publishBody = {
    type: 'object',
    additionalProperties: false,
    required: ['file', 'content', 'baseRevision'],
    properties: { file, content, baseRevision: revision, comment },
  } as const;
  app.post(
    '/studio/publish',
    {
      schema: {
        tags,
        summary: 'Publishes a document as its next revision, through the gate; 40001 with every problem, or "published meanwhile" with what changed when baseRevision is not current',
        description: `Needs ${STUDIO_MENU}:publish.`,
        body: publishBody,
        response: okObject(),
      },
    },
    async (req, reply) => {
      const me = requireCan(req, STUDIO_MENU, 'publish');
      const { file: f, content: text, baseRevision, comment: note } = req.body;
      return publish(app, req, reply, { me, store, hub, gate, renderCheck, file: f, text, baseRevision, comment: note ?? '', action: 'studio.publish' });
    },
  );

  app.post(
    '/studio/rollback',
    {
      schema: {
        tags,
        summary: 'Publishes the content of an earlier revision (0 = bundled) as the next revision, through the same gate',
        description: `Needs ${STUDIO_MENU}:rollback.`,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['file', 'revision', 'baseRevision'],
          properties: { file, revision, baseRevision: revision, comment },
        },
        response: okObject(),
      },
    },
    async (req, reply) => {
      const me = requireCan(req, STUDIO_MENU, 'rollback');
      const { file: f, revision: target, baseRevision, comment: note } = req.body;
      const found = await store.revision(app.db, f, target);
      if (!found) throw notFound(msg['studio.noRevision']);
      return publish(app, req, reply, {
        me,
        store,
        hub,
        gate,
        renderCheck,
        file: f,
        text: JSON.stringify(found.content),
        baseRevision,
        comment: note ?? '',
        action: 'studio.rollback',
        restores: target,
      });
    },
  );
}

function diffOrNote(before: unknown, text: string) {
  try {
    return describeChanges(before, JSON.parse(text));
  } catch {
    return [{ pointer: '', kind: 'changed', text: { zh: '草稿不是有效的 JSON', en: 'the draft is not valid JSON', es: 'el borrador no es JSON válido' } }];
  }
}

async function runGate(app: TypedApp, gate: Gate, renderCheck: RenderCheck, file: string, text: string, lang: Lang) {
  const { effective, result } = await gate.check(app.db, file, text, lang);
  const problems = [...result.problems];
  // The render runs on a document the other rules let through: a broken one says why already.
  if (!refuses(problems) && documentTypeOfPath(file) === 'screen') {
    const rendered = await renderCheck.check({ file, screen: result.value, effective: effective.documents, lang });
    if (rendered) {
      // The renderer's own words (React's) are for the log; the configurer reads the block's name.
      app.log.warn({ file, pointer: rendered.pointer, why: rendered.internal }, 'studio render check refused a screen');
      problems.push({ file, pointer: rendered.pointer, message: t(lang, rendered.key, rendered.params), severity: 'error' });
    }
  }
  return { effective, problems, value: result.value as Record<string, unknown>, migrated: result.migrated, migratedFrom: result.migratedFrom };
}

async function publish(
  app: TypedApp,
  req: FastifyRequest,
  reply: FastifyReply,
  p: {
    me: SessionUser;
    store: SchemaStore;
    hub: PublishHub;
    gate: Gate;
    renderCheck: RenderCheck;
    file: string;
    text: string;
    baseRevision: number;
    comment: string;
    action: 'studio.publish' | 'studio.rollback';
    restores?: number;
  },
) {
  const type = documentTypeOfPath(p.file);
  const gated = await runGate(app, p.gate, p.renderCheck, p.file, p.text, req.lang);
  if (refuses(gated.problems) || !type) throw refuseProblems(gated.problems);
  const before = gated.effective.documents.find((d) => d.file === p.file)?.content ?? null;
  try {
    const done = await app.db.transaction(async (tx) => {
      const stored = await p.store.publish(tx, {
        file: p.file,
        type,
        content: gated.value,
        baseRevision: p.baseRevision,
        comment: p.comment,
        author: { id: p.me.id, username: p.me.username },
        restores: p.restores,
      });
      // The menus table follows the published tree in the same transaction (the menu manager's rows).
      if (type === 'menus') await syncMenus(tx, stored.content as unknown as MenuDocument);
      await audit(tx, req, {
        action: p.action,
        resource: 'schemas',
        recordId: p.file,
        changes: { revision: stored.revision, comment: p.comment, ...(p.restores !== undefined ? { restores: p.restores } : {}), diff: describeChanges(before, stored.content) },
      });
      return stored;
    });
    p.hub.published({ generation: done.generation, file: p.file, revision: done.revision });
    return ok({ revision: done.revision, generation: done.generation });
  } catch (err) {
    if (!(err instanceof PublishedMeanwhile)) throw err;
    return refuseMeanwhile(app, req, reply, p.store, p.file, p.baseRevision, err);
  }
}

/** 40001 "published meanwhile": who published what since the caller's base revision. */
async function refuseMeanwhile(app: TypedApp, req: FastifyRequest, reply: FastifyReply, store: SchemaStore, f: string, baseRevision: number, err: PublishedMeanwhile) {
  const base = await store.revision(app.db, f, baseRevision);
  const current = err.current;
  const author = current?.author ?? t(req.lang, msg['studio.nobody']);
  const message = t(req.lang, msg['studio.publishedMeanwhile'], { revision: err.currentRevision, author });
  const changes = current ? describeChanges(base?.content ?? store.bundled().get(f)?.content ?? null, current.content) : [];
  // Its own serializer: the route's 400 schema (errors only) would drop `current` and `changes`.
  return reply.code(400).serializer((payload: unknown) => JSON.stringify(payload)).send({
    status: Status.BUSINESS,
    message,
    data: {
      errors: [{ field: 'baseRevision', message }],
      current: current ? { revision: current.revision, author: current.author, at: current.at, comment: current.comment } : { revision: 0, author: null, at: null, comment: '' },
      changes,
    },
  });
}

export type { EffectiveSet };
