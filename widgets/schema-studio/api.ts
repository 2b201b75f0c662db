/**
 * The studio's calls (docs/studio.md, "HTTP API"), by name through the data provider:
 * the widget writes no URL (runtime/protocol/calls.ts names them).
 */
import type { DataProvider } from '../../runtime/services/contract.ts';
import type { LocalizedText } from '../../runtime/protocol/texts.ts';
import { isHttpError } from '../../runtime/widgets/api.ts';

export type DocType = 'screen' | 'resource' | 'menus';

export interface DocumentSummary {
  file: string;
  type: DocType;
  id: string;
  title: LocalizedText | null;
  routes: string[];
  section: string | null;
  status: 'bundled' | 'published' | 'new';
  revision: number;
  draft: boolean;
  updatedAt?: string | null;
  updatedBy?: string | null;
}

export interface StoredDocument {
  file: string;
  type: DocType;
  revision: number;
  bundled: unknown | null;
  published: { revision: number; content: unknown; author: string; at: string; comment: string } | null;
  draft: { content: string; baseRevision: number; savedAt: string } | null;
}

export type { GateProblem } from '../../runtime/schema/gate.ts';
export type { DocumentChange } from '../../runtime/schema/diff.ts';
import type { GateProblem } from '../../runtime/schema/gate.ts';
import type { DocumentChange } from '../../runtime/schema/diff.ts';

export interface RevisionSummary {
  revision: number;
  author: string | null;
  at: string | null;
  comment: string | null;
  formatVersion?: number;
}

export interface ViewAsRole {
  role: string;
  name: LocalizedText;
  menus: string[];
  elements: string[];
}

/** A refusal of publish or rollback, told apart: gate problems, or someone published meanwhile. */
export type Refusal =
  | { kind: 'problems'; message: string; problems: GateProblem[] }
  | { kind: 'meanwhile'; message: string; current: { revision: number; author: string; at: string; comment: string }; changes: DocumentChange[] }
  | { kind: 'other'; message: string };

export class StudioApi {
  constructor(private readonly data: DataProvider) {}

  async documents(): Promise<DocumentSummary[]> {
    return (await this.data.call<DocumentSummary[]>('studioDocuments', { quiet: true })).data;
  }
  async document(file: string): Promise<StoredDocument> {
    return (await this.data.call<StoredDocument>('studioDocument', { params: { file }, quiet: true })).data;
  }
  async saveDraft(file: string, content: string, baseRevision: number): Promise<{ savedAt: string }> {
    return (await this.data.call<{ savedAt: string }>('studioSaveDraft', { body: { file, content, baseRevision }, quiet: true })).data;
  }
  async deleteDraft(file: string): Promise<void> {
    await this.data.call('studioDeleteDraft', { params: { file }, quiet: true });
  }
  async check(file: string, content: string): Promise<{ problems: GateProblem[]; migratedFrom?: number }> {
    return (await this.data.call<{ problems: GateProblem[]; migratedFrom?: number }>('studioCheck', { body: { file, content }, quiet: true })).data;
  }
  async publish(file: string, content: string, baseRevision: number, comment: string): Promise<{ revision: number; generation: number }> {
    return (await this.data.call<{ revision: number; generation: number }>('studioPublish', { body: { file, content, baseRevision, comment }, quiet: true })).data;
  }
  async rollback(file: string, revision: number, baseRevision: number, comment: string): Promise<{ revision: number; generation: number }> {
    return (await this.data.call<{ revision: number; generation: number }>('studioRollback', { body: { file, revision, baseRevision, comment }, quiet: true })).data;
  }
  async revisions(file: string): Promise<RevisionSummary[]> {
    return (await this.data.call<RevisionSummary[]>('studioRevisions', { params: { file }, quiet: true })).data;
  }
  async revision(file: string, revision: number): Promise<unknown> {
    const reply = (await this.data.call<unknown>('studioRevision', { params: { file, revision }, quiet: true })).data;
    // The contract says "→ content"; a reply wrapping it as {content} is taken too.
    return reply && typeof reply === 'object' && 'content' in reply && !('$schema' in reply) ? (reply as { content: unknown }).content : reply;
  }
  async viewAs(): Promise<ViewAsRole[]> {
    return (await this.data.call<ViewAsRole[]>('studioViewAs', { quiet: true })).data;
  }
  async coverage<T>(): Promise<T> {
    return (await this.data.call<T>('studioCoverage', { quiet: true })).data;
  }
}

/** What a refused publish or rollback says, from the error the data provider threw. */
export function refusalOf(e: unknown, file: string): Refusal {
  if (!isHttpError(e)) return { kind: 'other', message: e instanceof Error ? e.message : String(e) };
  const message = e.serverMessage ?? e.message;
  const data = (e.body as { data?: unknown } | null)?.data;
  if (data && typeof data === 'object' && !Array.isArray(data) && 'current' in data) {
    const d = data as { current: { revision: number; author: string; at: string; comment: string }; changes?: DocumentChange[] };
    return { kind: 'meanwhile', message, current: d.current, changes: d.changes ?? [] };
  }
  const list = Array.isArray(data) ? data : Array.isArray((data as { errors?: unknown } | null)?.errors) ? (data as { errors: unknown[] }).errors : null;
  if (list) {
    const problems = (list as { field?: string; message?: string }[]).map((x) => {
      const field = String(x.field ?? '');
      const hash = field.indexOf('#');
      return { file: hash >= 0 ? field.slice(0, hash) : file, pointer: hash >= 0 ? field.slice(hash + 1) : field, message: String(x.message ?? ''), severity: 'error' as const };
    });
    return { kind: 'problems', message, problems };
  }
  return { kind: 'other', message };
}

/** The studio API is not there (this server has no store yet): 404 / route not found. */
export function isMissingApi(e: unknown): boolean {
  return isHttpError(e) && (e.httpStatus === 404 || e.status === 40401);
}
