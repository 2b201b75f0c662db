/**
 * When a form's preview (FormScreen.preview) may be asked for, and with what body. Pure, so
 * the rules are tested without a browser; FormPreview.tsx does the waiting and the call.
 */
import type { FormPreview } from '../schema/screen.ts';
import { resolveParams, type ValueContext } from '../schema/values.ts';

/** The fields the preview waits for: its own list, else the record's required fields. */
export function previewRequires(preview: FormPreview, required: readonly string[] | undefined): string[] {
  return preview.requires ?? [...(required ?? [])];
}

/** rjsf's error schema: `{field: {__errors: [...]}}`. */
type ErrorTree = { [field: string]: unknown };

/** The waited-for fields still empty, or holding a value the record schema refuses. */
export function unreadyFields(requires: readonly string[], data: Record<string, unknown>, errors: ErrorTree | undefined): string[] {
  return requires.filter((f) => {
    const v = data[f];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) return true;
    const own = errors?.[f] as { __errors?: unknown[] } | undefined;
    return !!own?.__errors?.length;
  });
}

/**
 * The preview call's body: the form's values of its fields, then the preview's own `body`
 * values (resolved against the form), which win. Null while a waited-for field is not ready.
 */
export function previewBody(
  preview: FormPreview,
  fields: readonly string[],
  data: Record<string, unknown>,
  ctx: ValueContext,
  unready: readonly string[],
): Record<string, unknown> | null {
  if (unready.length) return null;
  const body: Record<string, unknown> = {};
  for (const f of fields) if (data[f] !== undefined && data[f] !== '') body[f] = data[f];
  for (const [k, v] of Object.entries(resolveParams(preview.body, ctx))) if (v !== undefined) body[k] = v;
  return body;
}

export const PREVIEW_DEBOUNCE_MS = 400;
