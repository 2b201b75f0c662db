/**
 * Which screen documents the long browser walks (axe, every route) visit. `npm test` walks
 * one document of each kind (each widget and widget view counted as a kind of its own) and
 * every document that changed since the last full walk; `npm run test:full` (TEST_FULL=1)
 * walks them all and then records what it walked in walk-baseline.json
 * (`npm run walks:baseline`). A new or edited screen is therefore walked by `npm test`
 * until a full walk has passed with it, and a screen nobody touched is walked nightly.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FULL_RUN } from '../support/tier.ts';

export const SCREENS_DIR = join(import.meta.dirname, '../../schemas/screens');
export const BASELINE_FILE = join(import.meta.dirname, 'walk-baseline.json');

/** Every walk visits everything: `npm run test:full` (tests/support/tier.ts). */
export const FULL_WALK = FULL_RUN;

export interface WalkedDoc {
  /** Path under schemas/screens/. */
  file: string;
  id: string;
  kind: string;
  widget?: string;
  props?: { view?: string };
  route?: string;
  aliases?: { route: string }[];
  routes?: { route: string }[];
  authority: string;
  public?: boolean;
}

export const contentHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The screen documents on disk with the hash of their text, in file order. */
export function screenFiles(): { doc: WalkedDoc; hash: string }[] {
  return readdirSync(SCREENS_DIR, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(SCREENS_DIR, file), 'utf8');
      return { doc: { ...(JSON.parse(text) as Omit<WalkedDoc, 'file'>), file }, hash: contentHash(text) };
    });
}

/** What makes two documents render differently enough to be walked apart: kind, widget, view. */
export const kindKey = (d: WalkedDoc): string => [d.kind, d.widget ?? '', d.props?.view ?? ''].join('/');

function baseline(): Record<string, string> {
  return existsSync(BASELINE_FILE) ? (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Record<string, string>) : {};
}

/**
 * Whether a walk visits `doc` (of a set that `eligible` narrows to what the walking account
 * may open): always in a full walk; otherwise the first eligible document of its kind, and
 * every document whose text differs from the baseline.
 */
export function walkSelector(eligible: (d: WalkedDoc) => boolean = () => true): (d: WalkedDoc) => boolean {
  if (FULL_WALK) return () => true;
  const recorded = baseline();
  const chosen = new Set<string>();
  const kinds = new Set<string>();
  for (const { doc, hash } of screenFiles()) {
    if (!eligible(doc)) continue;
    if (recorded[doc.file] !== hash) chosen.add(doc.file);
    if (!kinds.has(kindKey(doc))) {
      kinds.add(kindKey(doc));
      chosen.add(doc.file);
    }
  }
  return (d) => chosen.has(d.file);
}

/** Every route pattern a document serves (its route, its aliases, its routes). */
export const routesOf = (d: WalkedDoc): string[] => [...(d.route ? [d.route] : []), ...(d.aliases ?? []).map((a) => a.route), ...(d.routes ?? []).map((r) => r.route)];
