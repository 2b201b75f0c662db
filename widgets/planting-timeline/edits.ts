/**
 * The bars' pending changes, apart from the items the timeline is given: a draft (being
 * dragged or nudged with keys, not sent), a save in flight (shown at its new place while the
 * server decides), or the server's refusal (the bar back at its dates, the message beside it).
 * Items come back from the owner once a save succeeds, so a settled edit is simply dropped.
 */
import { sameSpan, type DaySpan } from './reschedule.ts';

export type ItemId = string | number;

export interface Edit {
  draft?: DaySpan;
  saving?: DaySpan;
  /** The server's sentence refusing the last save of this bar. */
  refusal?: string;
}

export type Edits = ReadonlyMap<ItemId, Edit>;

export type EditAction =
  | { type: 'draft'; id: ItemId; span: DaySpan }
  | { type: 'cancel'; id: ItemId }
  | { type: 'saving'; id: ItemId; span: DaySpan }
  | { type: 'saved'; id: ItemId }
  | { type: 'refused'; id: ItemId; message: string }
  | { type: 'dismiss'; id: ItemId };

export const NO_EDITS: Edits = new Map();

export function editsReducer(edits: Edits, action: EditAction): Edits {
  const next = new Map(edits);
  const current = edits.get(action.id) ?? {};
  switch (action.type) {
    case 'draft':
      // A new gesture on a refused bar replaces the old refusal.
      put(next, action.id, { saving: current.saving, draft: action.span });
      break;
    case 'cancel':
      put(next, action.id, { saving: current.saving, refusal: current.refusal });
      break;
    case 'saving':
      put(next, action.id, { saving: action.span });
      break;
    case 'saved':
      put(next, action.id, { draft: current.draft });
      break;
    case 'refused':
      // The bar snaps back: neither the draft nor the refused dates stay on screen.
      put(next, action.id, { refusal: action.message });
      break;
    case 'dismiss':
      put(next, action.id, { draft: current.draft, saving: current.saving });
      break;
  }
  return next;
}

/** Where the bar is drawn: the draft, else the dates being saved, else the item's own. */
export function shownSpan(own: DaySpan, edit: Edit | undefined): DaySpan {
  return edit?.draft ?? edit?.saving ?? own;
}

/** Whether a draft is a change worth sending (a drag back to where it started is not). */
export function isChange(own: DaySpan, edit: Edit | undefined): edit is Edit & { draft: DaySpan } {
  return !!edit?.draft && !sameSpan(edit.draft, own);
}

function put(map: Map<ItemId, Edit>, id: ItemId, edit: Edit): void {
  if (edit.draft || edit.saving || edit.refusal) map.set(id, stripEmpty(edit));
  else map.delete(id);
}

function stripEmpty(edit: Edit): Edit {
  const out: Edit = {};
  if (edit.draft) out.draft = edit.draft;
  if (edit.saving) out.saving = edit.saving;
  if (edit.refusal) out.refusal = edit.refusal;
  return out;
}
