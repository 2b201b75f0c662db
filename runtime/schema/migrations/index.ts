/**
 * The migration chain of screen documents. Each step moves a document from one format to
 * the next; `migrateScreen` applies them in order until the current format. A document
 * is validated against the meta-schema of its own format before the first step (so its
 * errors point into the file as written) and against the current one after the last.
 */
import format0Schema from './format0.schema.json' with { type: 'json' };
import screenSchema from '../screen.schema.json' with { type: 'json' };
import { SCREEN_FORMAT_VERSION, type Screen } from '../screen.ts';
import { migrateV0ToV1, type Format0Screen } from './v0-to-v1.ts';

export interface Migration {
  from: number;
  to: number;
  /** One line for logs and the docs. */
  summary: string;
  up(doc: unknown): unknown;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    from: 0,
    to: 1,
    summary: 'type → kind, field names → column and field objects, single-language strings → {zh,en,es} marked untranslated',
    up: (doc) => migrateV0ToV1(doc as Format0Screen),
  },
];

/** Meta-schema of each format a document may be written in. */
export const FORMAT_META_SCHEMAS: Readonly<Record<number, object>> = {
  0: format0Schema,
  1: screenSchema,
};

/** The format a document declares; a document without `formatVersion` is format 0. */
export function formatOf(doc: unknown): number | null {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return null;
  const v = (doc as { formatVersion?: unknown }).formatVersion;
  if (v === undefined) return 0;
  return Number.isInteger(v) ? (v as number) : null;
}

export class MigrationError extends Error {}

export interface Migrated {
  doc: Screen;
  /** The format the document was written in. */
  from: number;
  /** Formats passed through, e.g. [0, 1]; empty when already current. */
  steps: number[];
}

/** Moves `doc` (valid in its own format) forward to the current format, one step at a time. */
export function migrateScreen(doc: unknown, target = SCREEN_FORMAT_VERSION): Migrated {
  const from = formatOf(doc);
  if (from === null) throw new MigrationError('formatVersion must be an integer');
  if (from > target) throw new MigrationError(`format ${from} is newer than this console's format ${target}; update the console`);
  let cur: unknown = structuredClone(doc);
  let at = from;
  const steps: number[] = [];
  while (at < target) {
    const step = MIGRATIONS.find((m) => m.from === at);
    if (!step) throw new MigrationError(`no migration from format ${at}`);
    cur = step.up(cur);
    if (steps.length === 0) steps.push(at);
    steps.push(step.to);
    at = step.to;
  }
  return { doc: cur as Screen, from, steps };
}
