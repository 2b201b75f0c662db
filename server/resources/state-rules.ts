import { business, type FieldError } from '../http/envelope.ts';
import { invalidInput } from './validation.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { hasTransitions, stateTitle, transitionOwnedFields, type TransitionDeclaration } from '../../runtime/schema/transitions.ts';
import { msg } from './messages.ts';
import { messageFor } from '../../runtime/schema/messages.ts';

/**
 * The rules of a document's declared transitions on the engine's plain writes: a new
 * record starts in the initial state, an update keeps the stored state and reasons.
 * A body may send those fields back unchanged (a form posting the row it loaded); a
 * different value is refused on its field, naming the actions that change it.
 */
export function settleOwnedFields(doc: ResourceDocument, data: Record<string, unknown>, stored: Record<string, unknown> | null, lang: Lang): void {
  if (!hasTransitions(doc)) return;
  const problems: FieldError[] = [];
  const initial: Record<string, unknown> = { [doc.states.field]: doc.states.initial };
  for (const field of transitionOwnedFields(doc)) {
    const kept = stored ? stored[field] : initial[field];
    const sent = data[field];
    if (sent !== undefined && sent !== (kept ?? null)) {
      const actions = Object.values(doc.transitions)
        .map((tr) => tr.title[lang])
        .join(lang === 'zh' ? '、' : ', ');
      const title = doc.record.properties[field]['x-title']?.[lang] ?? field;
      problems.push({ field, message: t(lang, msg['resource.stateOwned'], { field: title, actions }) });
    }
    if (kept === undefined || kept === null) delete data[field];
    else data[field] = kept;
  }
  if (problems.length) throw invalidInput(problems, lang);
}

/** Refuses a transition the record's state does not allow (40001, naming the state and the action). */
export function refuseFromState(doc: ResourceDocument, tr: TransitionDeclaration, state: unknown, lang: Lang): void {
  if (tr.from.some((s) => s === state)) return;
  throw business(msg['resource.transitionRefused'], { state: stateTitle(doc, state, lang), action: tr.title[lang] });
}

/** The reason of a transition that declares one, required or not; refused on the `reason` field when missing (in the field's own words when it has them). */
export function transitionReason(doc: ResourceDocument, tr: TransitionDeclaration, sent: unknown, lang: Lang): string | null {
  const reason = typeof sent === 'string' && sent.trim() ? sent.trim() : null;
  if (tr.reason?.required && !reason) {
    // The reason field's own "required" message (x-messages) when it declares one.
    const field = doc.record.properties[tr.reason.field];
    const message = field?.['x-messages']?.required
      ? messageFor({ rule: 'required', field }, lang)
      : t(lang, msg['resource.reasonRequired'], { action: tr.title[lang] });
    throw business(msg['resource.reasonRequired'], { action: tr.title[lang] }, [{ field: 'reason', message }]);
  }
  return tr.reason ? reason : null;
}
