/** The JSON Schemas the engine's routes validate and document with: a reply row, a write's body. */
import { MAX_ID, type ResourceDocument } from './types.ts';

/** Reply shape of one record: the meta fields, then the record's own properties. */
export function rowJsonSchema(doc: ResourceDocument): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      version: { type: 'integer' },
      farmId: { type: ['integer', 'null'] },
      farmName: { type: ['string', 'null'] },
      blocId: { type: ['integer', 'null'] },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      createdBy: { type: ['integer', 'null'] },
      updatedBy: { type: ['integer', 'null'] },
      labels: {
        type: 'object',
        description: 'Display value of each referenced record, by reference property.',
        additionalProperties: { type: ['string', 'null'] },
      },
      _can: {
        type: 'object',
        description: 'Actions a rule beyond element codes refuses this caller on this record (false), for the console to leave out; absent when none.',
        additionalProperties: { type: 'boolean' },
      },
      ...doc.record.properties,
    },
    required: ['id', 'version', 'createdAt', 'updatedAt'],
  };
}

/**
 * Body schema of a write. Unknown properties are refused (40001 naming them); the
 * read-only meta fields are accepted so that a form can post back the row it loaded.
 */
export function writeJsonSchema(doc: ResourceDocument, mode: 'create' | 'update'): Record<string, unknown> {
  const readOnly = (schema: Record<string, unknown>) => ({ ...schema, readOnly: true });
  const meta: Record<string, unknown> = {
    id: readOnly({ type: 'integer' }),
    farmName: readOnly({ type: ['string', 'null'], maxLength: 500 }),
    blocId: readOnly({ type: ['integer', 'null'] }),
    createdAt: readOnly({ type: 'string', maxLength: 40 }),
    updatedAt: readOnly({ type: 'string', maxLength: 40 }),
    createdBy: readOnly({ type: ['integer', 'null'] }),
    updatedBy: readOnly({ type: ['integer', 'null'] }),
    labels: readOnly({ type: 'object', maxProperties: 50, additionalProperties: { type: ['string', 'null'], maxLength: 500 } }),
    _can: readOnly({ type: 'object', maxProperties: 20, additionalProperties: { type: 'boolean' } }),
  };
  const properties: Record<string, unknown> = { ...meta, ...doc.record.properties };
  // A partial update (docs/resources.md, "partialUpdate") keeps what is not sent: nothing is required.
  const partial = mode === 'update' && doc.partialUpdate === true;
  const required = partial ? [] : [...(doc.record.required ?? [])];
  if (mode === 'update') {
    properties.version = { type: 'integer', minimum: 1, maximum: MAX_ID, description: partial ? 'The version the change was made on; checked when sent.' : 'The version the change was made on.' };
    properties.farmId = readOnly({ type: ['integer', 'null'] });
    if (!partial) required.push('version');
  } else {
    properties.version = readOnly({ type: 'integer' });
    if (isSelfOwned(doc)) {
      properties.farmId = readOnly({ type: ['integer', 'null'] });
      properties.blocId = { type: 'integer', minimum: 1, maximum: MAX_ID, description: 'The group the new organisation joins: platform administrators only (a provider\'s goes into its own group).' };
    } else {
      properties.farmId =
        doc.scope === 'farm'
          ? { type: 'integer', minimum: 1, maximum: MAX_ID, description: 'Owner farm. Required for platform administrators and service providers; a farm user may omit it.' }
          : readOnly({ type: ['integer', 'null'] });
      if (doc.scope === 'group')
        properties.blocId = { type: 'integer', minimum: 1, maximum: MAX_ID, description: 'Owner group of farms. Required for platform administrators.' };
    }
  }
  return { type: 'object', additionalProperties: false, required, properties };
}

/** Rows that are organisations, each its own farm (a table-backed document whose farm column is `id`). */
export function isSelfOwned(doc: Pick<ResourceDocument, 'scope' | 'storage'>): boolean {
  return doc.scope === 'farm' && doc.storage?.owner?.farmId === 'id';
}
