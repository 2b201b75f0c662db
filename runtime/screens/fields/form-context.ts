/**
 * What the form renderer hands its widgets besides their own value (rjsf `formContext`):
 * the value context (route, query, the form's current data as `record`) for widgets that
 * read endpoints, and a way to set other fields of the form (a checkbox tree's leaves).
 */
import type { ValueContext } from '../../schema/values.ts';

export interface FormContext {
  ctx: ValueContext;
  setValues: (patch: Record<string, unknown>) => void;
  /**
   * Registers a check run when the form is submitted, after validation and before the
   * call (a checkbox tree's summary to confirm); false cancels the save. Returns the
   * unregistration.
   */
  beforeSubmit?: (check: () => Promise<boolean>) => () => void;
}
