/**
 * The schema store (docs/studio.md, "The store"): the effective set of documents is the
 * bundled `schemas/` folder overlaid, file by file, by the latest revision published in
 * the database. Revisions are kept for ever (author, time, comment, format version);
 * drafts belong to their author alone.
 *
 * A publish runs in the caller's transaction and starts by raising the one row of
 * `schema_generation`: that row lock orders every publish, so the second of two
 * concurrent publishes of a file reads the first one's revision and is refused (and the
 * UNIQUE (file, revision) constraint stays as a backstop).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../db/database.ts';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import type { DocumentType } from '../../runtime/schema/registry-core.ts';
import type { EffectiveDocument } from '../../runtime/schema/gate.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface BundledDocument {
  file: string;
  type: DocumentType;
  content: unknown;
  text: string;
}

export interface RevisionInfo {
  revision: number;
  author: string | null;
  /** null for revision 0, the bundled document. */
  at: string | null;
  comment: string;
  formatVersion: number;
  /** A rollback names the revision it restored (0 = bundled). */
  restores: number | null;
}

export interface PublishedDocument extends RevisionInfo {
  file: string;
  type: DocumentType;
  generation: number;
  content: unknown;
  text: string;
}

export interface DraftRow {
  file: string;
  content: string;
  baseRevision: number;
  savedAt: string;
}

export interface EffectiveSet {
  generation: number;
  documents: EffectiveDocument[];
  /** The latest published revision of each file that has one. */
  published: Map<string, PublishedDocument>;
}

/** The format version a document declares (0 when it says none). */
export function formatVersionOf(content: unknown): number {
  const v = (content as { formatVersion?: unknown } | null)?.formatVersion;
  return Number.isInteger(v) ? (v as number) : 0;
}

/** A published revision's error: its base is not the current revision any more. */
export class PublishedMeanwhile extends Error {
  constructor(
    readonly current: PublishedDocument | null,
    readonly currentRevision: number,
  ) {
    super('published meanwhile');
  }
}

type RevisionRow = {
  file: string;
  type: DocumentType;
  revision: number;
  generation: string | number;
  content_text: string;
  format_version: number;
  author_username: string | null;
  at: string | Date;
  comment: string;
  restores: number | null;
};

const iso = (at: string | Date) => (at instanceof Date ? at.toISOString() : new Date(at).toISOString());

function toPublished(r: RevisionRow): PublishedDocument {
  return {
    file: r.file,
    type: r.type,
    revision: r.revision,
    generation: Number(r.generation),
    content: JSON.parse(r.content_text),
    text: r.content_text,
    formatVersion: r.format_version,
    author: r.author_username,
    at: iso(r.at),
    comment: r.comment,
    restores: r.restores,
  };
}

const REVISION_COLUMNS = 'file, type, revision, generation, content_text, format_version, author_username, at, comment, restores';

export class SchemaStore {
  private bundledCache: Map<string, BundledDocument> | null = null;
  private effectiveCache: EffectiveSet | null = null;

  constructor(readonly root = REPO_ROOT) {}

  /** The documents shipped in `schemas/` (read once). */
  bundled(): Map<string, BundledDocument> {
    if (!this.bundledCache) {
      this.bundledCache = new Map();
      for (const d of folderSource(this.root).documents() as { file: string; type: DocumentType; content: string }[]) {
        this.bundledCache.set(d.file, { file: d.file, type: d.type, content: JSON.parse(d.content), text: d.content });
      }
    }
    return this.bundledCache;
  }

  async generation(db: Queryable): Promise<number> {
    const { rows } = await db.query<{ generation: string | number }>('SELECT generation FROM schema_generation WHERE id = 1');
    return Number(rows[0]?.generation ?? 0);
  }

  /** The latest revision of every published file. */
  async published(db: Queryable): Promise<PublishedDocument[]> {
    const { rows } = await db.query<RevisionRow>(
      `SELECT DISTINCT ON (file) ${REVISION_COLUMNS} FROM schema_revisions ORDER BY file, revision DESC`,
    );
    return rows.map(toPublished);
  }

  /** Bundled overlaid by published; cached until the generation moves. */
  async effective(db: Queryable): Promise<EffectiveSet> {
    const generation = await this.generation(db);
    if (this.effectiveCache && this.effectiveCache.generation === generation) return this.effectiveCache;
    const published = new Map((await this.published(db)).map((p) => [p.file, p]));
    const documents: EffectiveDocument[] = [];
    for (const b of this.bundled().values()) {
      const p = published.get(b.file);
      documents.push(p ? { file: b.file, type: b.type, content: p.content } : { file: b.file, type: b.type, content: b.content });
    }
    for (const p of published.values()) if (!this.bundled().has(p.file)) documents.push({ file: p.file, type: p.type, content: p.content });
    this.effectiveCache = { generation, documents, published };
    return this.effectiveCache;
  }

  /** Newest first; revision 0 (the bundled document) last when the file is bundled. */
  async revisions(db: Queryable, file: string): Promise<RevisionInfo[]> {
    const { rows } = await db.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM schema_revisions WHERE file = $1 ORDER BY revision DESC`, [file]);
    const out: RevisionInfo[] = rows.map((r) => {
      const { file: _f, type: _t, generation: _g, content: _c, text: _x, ...info } = toPublished(r);
      return info;
    });
    const b = this.bundled().get(file);
    if (b) out.push({ revision: 0, author: null, at: null, comment: '', formatVersion: formatVersionOf(b.content), restores: null });
    return out;
  }

  /** One revision of a file (0 = the bundled document), or null. */
  async revision(db: Queryable, file: string, revision: number): Promise<{ content: unknown; text: string; info: RevisionInfo } | null> {
    if (revision === 0) {
      const b = this.bundled().get(file);
      return b ? { content: b.content, text: b.text, info: { revision: 0, author: null, at: null, comment: '', formatVersion: formatVersionOf(b.content), restores: null } } : null;
    }
    const { rows } = await db.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM schema_revisions WHERE file = $1 AND revision = $2`, [file, revision]);
    if (!rows[0]) return null;
    const p = toPublished(rows[0]);
    return { content: p.content, text: p.text, info: p };
  }

  /** The latest published revision of a file, or null when it was never published. */
  async latest(db: Queryable, file: string): Promise<PublishedDocument | null> {
    const { rows } = await db.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM schema_revisions WHERE file = $1 ORDER BY revision DESC LIMIT 1`, [file]);
    return rows[0] ? toPublished(rows[0]) : null;
  }

  /**
   * Stores `content` as the next revision of `file`, in `tx`. Throws PublishedMeanwhile
   * (nothing stored) when `baseRevision` is not the file's current revision.
   */
  async publish(
    tx: Queryable,
    input: { file: string; type: DocumentType; content: Record<string, unknown>; baseRevision: number; comment: string; author: { id: number; username: string }; restores?: number },
  ): Promise<{ revision: number; generation: number; content: Record<string, unknown> }> {
    // The lock first: every publish waits here for the one before it to commit.
    const gen = await tx.query<{ generation: string | number }>('UPDATE schema_generation SET generation = generation + 1 WHERE id = 1 RETURNING generation');
    const generation = Number(gen.rows[0].generation);
    const latest = await this.latest(tx, input.file);
    const currentRevision = latest?.revision ?? 0;
    if (currentRevision !== input.baseRevision) throw new PublishedMeanwhile(latest, currentRevision);
    const revision = currentRevision + 1;
    // The document says its own revision (the contract of docs/studio.md).
    const content = { ...input.content, revision };
    const text = `${JSON.stringify(content, null, 2)}\n`;
    await tx.query(
      `INSERT INTO schema_revisions(file, type, revision, generation, content, content_text, format_version, author_id, author_username, comment, restores)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [input.file, input.type, revision, generation, text, text, formatVersionOf(content), input.author.id, input.author.username, input.comment, input.restores ?? null],
    );
    return { revision, generation, content };
  }

  // --- drafts: every query names the author ------------------------------------------

  async draft(db: Queryable, userId: number, file: string): Promise<DraftRow | null> {
    const { rows } = await db.query<{ file: string; content: string; base_revision: number; saved_at: string | Date }>(
      'SELECT file, content, base_revision, saved_at FROM schema_drafts WHERE user_id = $1 AND file = $2',
      [userId, file],
    );
    const r = rows[0];
    return r ? { file: r.file, content: r.content, baseRevision: r.base_revision, savedAt: iso(r.saved_at) } : null;
  }

  async draftFiles(db: Queryable, userId: number): Promise<Set<string>> {
    const { rows } = await db.query<{ file: string }>('SELECT file FROM schema_drafts WHERE user_id = $1', [userId]);
    return new Set(rows.map((r) => r.file));
  }

  async saveDraft(db: Queryable, userId: number, file: string, content: string, baseRevision: number): Promise<string> {
    const { rows } = await db.query<{ saved_at: string | Date }>(
      `INSERT INTO schema_drafts(user_id, file, content, base_revision, saved_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (user_id, file) DO UPDATE SET content = EXCLUDED.content, base_revision = EXCLUDED.base_revision, saved_at = now()
       RETURNING saved_at`,
      [userId, file, content, baseRevision],
    );
    return iso(rows[0].saved_at);
  }

  async deleteDraft(db: Queryable, userId: number, file: string): Promise<boolean> {
    const { rows } = await db.query('DELETE FROM schema_drafts WHERE user_id = $1 AND file = $2 RETURNING file', [userId, file]);
    return rows.length > 0;
  }
}
