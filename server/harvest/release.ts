/**
 * The release gate (issue 25 item 2; docs/harvest-sales-trace.md, "The release gate").
 *
 * A batch harvested inside any pesticide's safety interval (server/harvest/safety.ts) is
 * *held*: it gets no public trace code, no public page and no sale until either
 *
 * - a residue test **of that batch** (a `qualityRecords` record of kind `residueTest` naming
 *   the batch in `harvestId`, of the batch's farm) dated on or after its harvest day has
 *   passed: the latest such test decides, so a failing re-test holds the batch again; or
 * - a holder of the element code `farmHarvestIndex:release` clears the flag with a reason
 *   (kept on the batch and in the operation log).
 *
 * A test of another batch, a test of the planting group as a whole, or a test dated before
 * the harvest never releases a batch. The state is computed when read, as the flag is, so
 * recording the test (or reversing the stock-out that caused the flag) releases the batch
 * without a second write.
 */
import type { Queryable } from '../db/database.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { type SafetyFlag, safetyFlags } from './reads.ts';
import './messages.ts';

/** `notFlagged`: harvested outside every interval; `held`: waiting; `tested` / `cleared`: released by a test or by a person. */
export type ReleaseState = 'notFlagged' | 'held' | 'tested' | 'cleared';

export interface Release {
  state: ReleaseState;
  flags: SafetyFlag[];
  /** The latest residue test of the batch dated on or after its harvest, if any. */
  test: { id: number; testedOn: string; passed: boolean } | null;
  clearedReason: string | null;
}

export const RELEASE_ELEMENT = 'farmHarvestIndex:release';

/** The release state of each batch (ids of any farm: the caller has checked the scope). */
export async function releaseStates(db: Queryable, harvestIds: number[]): Promise<Map<number, Release>> {
  const out = new Map<number, Release>();
  if (!harvestIds.length) return out;
  const [flags, rows] = await Promise.all([
    safetyFlags(db, harvestIds),
    db.query<{ id: string; release_reason: string | null; test_id: string | null; tested_on: string | null; conclusion: string | null }>(
      `SELECT h.id, h.release_reason, q.id AS test_id, q.tested_on, q.conclusion
         FROM harvests h
         LEFT JOIN LATERAL (
           SELECT r.id, r.data->>'testedOn' AS tested_on, r.data->>'conclusion' AS conclusion
             FROM resource_records r
            WHERE r.resource = 'qualityRecords' AND r.farm_id = h.farm_id AND r.data->>'kind' = 'residueTest'
              AND r.data->>'harvestId' = h.id::text AND r.data->>'testedOn' >= h.harvested_on::text
            ORDER BY r.data->>'testedOn' DESC, r.id DESC LIMIT 1) q ON TRUE
        WHERE h.id = ANY($1::bigint[])`,
      [harvestIds],
    ),
  ]);
  for (const r of rows.rows) {
    const id = Number(r.id);
    const f = flags.get(id) ?? [];
    const test = r.test_id ? { id: Number(r.test_id), testedOn: String(r.tested_on), passed: r.conclusion === 'pass' } : null;
    const state: ReleaseState = !f.length ? 'notFlagged' : test?.passed ? 'tested' : r.release_reason ? 'cleared' : 'held';
    out.set(id, { state, flags: f, test, clearedReason: r.release_reason });
  }
  return out;
}

export async function releaseOf(db: Queryable, harvestId: number): Promise<Release> {
  return (await releaseStates(db, [harvestId])).get(harvestId) ?? { state: 'notFlagged', flags: [], test: null, clearedReason: null };
}

export const isHeld = (r: Release | undefined) => r?.state === 'held';

/** Why a batch is held, or how it was released, in one sentence of the reader's language. */
export function releaseNote(lang: Lang, batchNo: string, r: Release): string {
  const cause = r.flags.map((f) => t(lang, 'harvest.releaseCause', { material: f.material, appliedOn: f.appliedOn, safeFrom: f.safeFrom })).join(lang === 'zh' ? '；' : '; ');
  switch (r.state) {
    case 'held':
      return t(lang, r.test ? 'harvest.heldFailed' : 'harvest.held', { batch: batchNo, cause, testedOn: r.test?.testedOn ?? '' });
    case 'tested':
      return t(lang, 'harvest.releasedByTest', { batch: batchNo, testedOn: r.test?.testedOn ?? '' });
    case 'cleared':
      return t(lang, 'harvest.releasedByPerson', { batch: batchNo, reason: r.clearedReason ?? '' });
    default:
      return '';
  }
}
