/** How a resource's fields read in the page query: scalar kinds, filter parameters, sort specs. */
import { IMPLICIT_SORTABLE, type FieldSchema, type ResourceDocument, type ScalarType, type SearchableField } from './types.ts';

/** The scalar kind of a top-level property, or null for arrays and objects. */
export function scalarTypeOf(field: FieldSchema | undefined): ScalarType | null {
  if (!field) return null;
  if (field.type === 'string') return 'string';
  if (field.type === 'integer' || field.type === 'number') return 'number';
  if (field.type === 'boolean') return 'boolean';
  return null;
}

/** The query parameters a searchable field contributes to the page query. */
export function filterParamNames(s: SearchableField): string[] {
  return s.filter === 'range' ? [`${s.field}From`, `${s.field}To`] : [s.field];
}

export interface SortKey {
  field: string;
  desc: boolean;
}

/** `"name,-createdAt"` → keys; every field must be sortable (declared or implicit). */
export function parseSort(spec: string, doc: Pick<ResourceDocument, 'sortable'>): SortKey[] | { error: string } {
  const keys: SortKey[] = [];
  const seen = new Set<string>();
  for (const part of spec.split(',')) {
    const desc = part.startsWith('-');
    const field = desc ? part.slice(1) : part;
    if (!field) return { error: 'has an empty sort field' };
    if (!doc.sortable.includes(field) && !(IMPLICIT_SORTABLE as readonly string[]).includes(field))
      return { error: `"${field}" is not sortable; sortable: ${[...doc.sortable, ...IMPLICIT_SORTABLE].join(', ')}` };
    if (seen.has(field)) return { error: `"${field}" appears twice` };
    seen.add(field);
    keys.push({ field, desc });
  }
  if (keys.length > 5) return { error: 'sorts by more than 5 fields' };
  return keys;
}
