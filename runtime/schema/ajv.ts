import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { addInputKeywords } from './input-rules.ts';

/**
 * The one ajv setup shared by the server, the console and the tools, so that a record
 * that passes in a form passes on the server and the reverse. JSON Schema draft-07:
 * the dialect of Fastify's own ajv and of @rjsf/validator-ajv8.
 *
 * Annotation keywords used by schema documents (`x-title`, `x-messages` …) are declared
 * here, so that strict mode still catches misspelt real keywords.
 */
export const ANNOTATION_KEYWORDS = ['x-title', 'x-enumTitles', 'x-description', 'x-messages', 'x-geometry', 'x-file'] as const;

export interface SchemaAjvOptions {
  /** Query strings and path parameters arrive as text: coerce them ("12" → 12, "a" → ["a"]). */
  coerce?: boolean;
}

export function createAjv(opts: SchemaAjvOptions = {}): Ajv {
  const options: Options = {
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    coerceTypes: opts.coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: false,
    messages: true,
    // Errors carry the failing schema, so that the message generator (messages.ts) can
    // name the field by its title and use the field's own messages.
    verbose: true,
  };
  const ajv = new Ajv(options);
  addFormats(ajv);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['object', 'array', 'string'] });
  // The rules of every field (input-rules.ts): no control character, no infinite number.
  return addInputKeywords(ajv);
}
