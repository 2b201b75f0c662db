/**
 * Import of records from a spreadsheet (docs/import.md): which fields of a resource a file
 * may fill, and the column headers that name them. Pure code shared by the server (which
 * maps a file's headers to fields) and the console (which writes the template), so the two
 * agree on every header.
 */
import type { FieldSchema, ResourceDocument } from './resource/types.ts';
import { transitionOwnedFields } from './transitions.ts';
import type { Lang } from './texts.ts';

/** Limits of one import (the server refuses beyond them; the console says so before sending). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_MODES = ['preview', 'all', 'validOnly'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** A scalar field, or a list of scalars (written in one cell, separated by commas). */
function importableSchema(field: FieldSchema): boolean {
  if (field['x-geometry'] || field['x-file']) return false;
  if (field.type === 'string' || field.type === 'integer' || field.type === 'number' || field.type === 'boolean') return true;
  return field.type === 'array' && !!field.items && ['string', 'integer', 'number'].includes(field.items.type);
}

/**
 * The properties a file may fill, in the document's order: scalars and lists of scalars,
 * not geometries, not the fields only transitions change (a state starts where the
 * document says).
 */
export function importableFields(doc: Pick<ResourceDocument, 'record' | 'states' | 'transitions'>): string[] {
  const owned = new Set(transitionOwnedFields(doc as ResourceDocument));
  return Object.entries(doc.record.properties)
    .filter(([name, field]) => !owned.has(name) && importableSchema(field))
    .map(([name]) => name);
}

/** The header of a field's column in a template: its title in `lang`, marked « *» when required. */
export function importHeader(doc: Pick<ResourceDocument, 'record'>, field: string, lang: Lang): string {
  const schema = doc.record.properties[field];
  const title = schema?.['x-title']?.[lang] ?? field;
  return (doc.record.required ?? []).includes(field) ? `${title} *` : title;
}

/** A header or a title as compared: trimmed, without the required mark, spaces and case. */
export function headerKey(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\s*\*\s*$/, '')
    .replace(/\s+/g, '')
    .toLowerCase();
}

/**
 * The field each header names: its name, or its title in any language (the template's
 * headers, an export's column titles). Null for a header naming no importable field.
 */
export function headerField(doc: Pick<ResourceDocument, 'record' | 'states' | 'transitions'>, header: string): string | null {
  const key = headerKey(header);
  if (!key) return null;
  for (const field of importableFields(doc)) {
    const schema = doc.record.properties[field];
    const names = [field, ...Object.values(schema['x-title'] ?? {})].filter((s): s is string => typeof s === 'string');
    if (names.some((n) => headerKey(n) === key)) return field;
  }
  return null;
}
