/**
 * A regional center approves or rejects the plans farms submitted (docs/planting.md,
 * "States"). The two transitions are declared below in the engine's own shape and judged
 * by the engine's state rules over the plantPlans document's states (titles, refusal
 * sentences, the required reason). They are served here rather than by the engine's
 * `POST /api/farmPlantGroup/plans/:id/transitions/:name` because a center owns no farm:
 * the engine's farm scope finds none of the plans for it. The review scope is the one of
 * the review reads (the plans that are not drafts of the center's region: reviewScope), and
 * the element code is the center's review menu's, `plantAdmin:review`.
 */
import type { TypedApp } from '../http/typed-routes.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmOwnerScope, regionCenterOf } from '../auth/region-scope.ts';
import { Params } from '../db/params.ts';
import { audit } from '../audit/log.ts';
import type { Queryable } from '../db/database.ts';
import { business, forbidden, notFound, ok } from '../http/envelope.ts';
import { requireAnyMenu } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { diffRecords } from '../resources/diff.ts';
import { msg as resourceMsg } from '../resources/messages.ts';
import { ident, ROW_FROM, rowSelect, rowView, type RecordRow } from '../resources/sql.ts';
import { refuseFromState, transitionReason } from '../resources/state-rules.ts';
import { refuseValidation, resourceValidatorCompiler, invalidInput } from '../resources/validation.ts';
import { okObject } from '../admin/schemas.ts';
import { TRANSITIONS_FIELD, transitionBodySchema, type TransitionDeclaration } from '../../runtime/schema/transitions.ts';
import type { PlantingRecords } from './records.ts';
import { refuseIfClosed } from './rules.ts';
import { msg } from './messages.ts';

/** The review menu and its element code: who approves and rejects submitted plans. */
export const REVIEW_MENU = 'plantAdmin';
export const REVIEW_ELEMENT = 'plantAdmin:review';
/**
 * The reviewer's transitions of a plan's `reviewStatus`. The document declares only the
 * farm's `submit`: an element of the document is granted under its authority and every
 * alias, so a declared `review` element would be held by the farms that run the plans.
 */
export const REVIEW_TRANSITIONS: Readonly<Record<string, TransitionDeclaration>> = {
  approve: { from: ['submitted'], to: 'approved', element: REVIEW_ELEMENT, title: { zh: '审核通过', en: 'Approve', es: 'Aprobar' } },
  reject: {
    from: ['submitted'],
    to: 'rejected',
    element: REVIEW_ELEMENT,
    title: { zh: '驳回', en: 'Reject', es: 'Rechazar' },
    reason: { field: 'rejectReason', required: true },
  },
};

/**
 * The plans a reviewer reads and judges, on the column holding their farm: a regional center,
 * those of the farms of its region (auth/region-scope.ts); the platform and other reviewers
 * (technicians), every farm's.
 */
export function reviewScope(user: SessionUser, p: Params, column: string): string {
  return regionCenterOf(user) != null ? farmOwnerScope(user, p, column, 'read') : 'TRUE';
}

/** The review transitions a plan's state allows to `user` (the `_transitions` hint of the review rows). */
export function reviewHint(user: Pick<SessionUser, 'elements'>, state: unknown): string[] {
  if (!user.elements.has(REVIEW_ELEMENT)) return [];
  return Object.entries(REVIEW_TRANSITIONS)
    .filter(([, tr]) => tr.from.some((s) => s === state))
    .map(([name]) => name);
}

function stale(lang: Lang) {
  return business(resourceMsg['resource.stale'], {}, [{ field: 'version', message: t(lang, resourceMsg['resource.stale']) }]);
}

async function closedGroupOf(tx: Queryable, groupId: unknown, lang: Lang): Promise<void> {
  const { rows } = await tx.query<{ data: { status?: string } }>(`SELECT data FROM resource_records WHERE resource = 'plantGroups' AND id = $1`, [groupId]);
  const problems = rows[0] ? refuseIfClosed(rows[0].data as { status?: 'closed' }) : [];
  if (problems.length) throw invalidInput(problems.map((p) => ({ field: p.field, message: t(lang, p.key, p.params) })), lang);
}

export function registerReviewTransitions(app: TypedApp, store: PlantingRecords, tags: string[]) {
  const plans = store.doc('plantPlans');
  const select = rowSelect(plans, new Map(['plantGroups', 'planTemplates'].map((n) => [n, store.doc(n)])));
  const names = Object.keys(REVIEW_TRANSITIONS);
  app.post(
    '/examineFactory/plans/:id/transitions/:name',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: `Review a submitted plan: ${names.join(' or ')} (reject needs a reason); the plan’s reviewStatus and rejectReason change, its version rises`,
        description: `Needs the menu code ${REVIEW_MENU} and the element code ${REVIEW_ELEMENT}. A draft, a missing plan or another name answers 40401; a plan not awaiting review 40001.`,
        params: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'name'],
          properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 }, name: { type: 'string', maxLength: 40 } },
        },
        body: transitionBodySchema(2147483647),
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAnyMenu(req, [REVIEW_MENU]);
      if (!me.elements.has(REVIEW_ELEMENT)) throw forbidden();
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const tr = Object.hasOwn(REVIEW_TRANSITIONS, req.params.name) ? REVIEW_TRANSITIONS[req.params.name] : undefined;
      if (!tr) throw notFound();
      const field = plans.states!.field;
      const reason = transitionReason(plans, tr, req.body.reason, req.lang);
      return ok(
        await app.db.transaction(async (tx) => {
          const p = new Params();
          const { rows } = await tx.query<{ id: number; version: number; farm_id: number | null; data: Record<string, unknown> }>(
            `SELECT id, version, farm_id, data FROM resource_records
              WHERE resource = ${ident(plans.name)} AND id = ${p.add(req.params.id)} AND data->>'reviewStatus' <> 'draft' AND ${reviewScope(me, p, 'farm_id')} FOR UPDATE`,
            p.values,
          );
          const current = rows[0];
          if (!current) throw notFound();
          if (current.version !== req.body.version) throw stale(req.lang);
          const from = current.data[field] as string;
          refuseFromState(plans, tr, from, req.lang);
          await closedGroupOf(tx, current.data.groupId, req.lang);
          const data: Record<string, unknown> = { ...current.data, [field]: tr.to };
          if (tr.reason) {
            if (reason === null) delete data[tr.reason.field];
            else data[tr.reason.field] = reason;
          } else {
            // An approved plan no longer carries the reason of an earlier rejection: that
            // decision stays in the plan's review history and the operation log.
            delete data.rejectReason;
          }
          data.reviewHistory = [...reviewHistoryOf(current.data), { decision: tr.to, ...(reason ? { reason } : {}), at: new Date().toISOString(), by: me.name || me.username }];
          await tx.query(`UPDATE resource_records SET data = $1, version = version + 1, updated_by = $2, updated_at = now() WHERE id = $3`, [
            JSON.stringify(data),
            me.id,
            current.id,
          ]);
          await audit(tx, req, {
            action: `${plans.name}.${req.params.name}`,
            resource: plans.name,
            recordId: Number(current.id),
            changes: { farmId: current.farm_id, version: { from: current.version, to: current.version + 1 }, fields: diffRecords(current.data, data) },
          });
          await noticeToFarm(tx, current.farm_id, me.id, String(tr.to), String(current.data.name ?? ''), reason);
          const view = await tx.query<RecordRow>(`SELECT ${select} FROM ${ROW_FROM} WHERE r.resource = ${ident(plans.name)} AND r.id = $1`, [current.id]);
          const row = rowView(view.rows[0]);
          return { ...row, [TRANSITIONS_FIELD]: reviewHint(me, tr.to) };
        }),
      );
    },
  );
}

/** One decision of the review: what, why (a rejection), when and by whom (docs/planting.md, "Review"). */
export interface ReviewDecision {
  decision: 'approved' | 'rejected';
  reason?: string;
  at: string;
  by: string;
}

/** The decisions a plan has had, oldest first (none before the first review). */
export function reviewHistoryOf(data: Record<string, unknown>): ReviewDecision[] {
  return Array.isArray(data.reviewHistory) ? (data.reviewHistory as ReviewDecision[]) : [];
}

/**
 * The farm hears of the decision: a notice to every account of the plan's farm, in the shell's
 * bell and notice list. The title is a message key (shown in each reader's language); the
 * content is the plan's name, and the reason of a rejection.
 */
async function noticeToFarm(tx: Queryable, farmId: number | null, senderId: number, decision: string, planName: string, reason: string | null): Promise<void> {
  if (farmId === null) return;
  const { rows: users } = await tx.query<{ id: number }>('SELECT id FROM users WHERE org_id = $1', [farmId]);
  if (!users.length) return;
  const title = decision === 'approved' ? msg['planting.notice.approved'] : msg['planting.notice.rejected'];
  const content = (reason ? `${planName}: ${reason}` : planName).slice(0, 2000);
  const created = await tx.query<{ id: number }>(`INSERT INTO notices(title, content, kind, sender_id) VALUES ($1, $2, 'message', $3) RETURNING id`, [title, content, senderId]);
  await tx.query('INSERT INTO notice_receipts(notice_id, user_id) SELECT $1, unnest($2::int[])', [created.rows[0].id, users.map((u) => Number(u.id))]);
}
