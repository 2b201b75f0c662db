import type { ErrorObject } from 'ajv';
import localize from 'ajv-i18n';
import type { FastifySchemaCompiler } from 'fastify';
import { createAjv } from '../../runtime/schema/ajv.ts';
import { business, type FieldError } from '../http/envelope.ts';
import type { Lang } from '../i18n/lang.ts';
import { msg } from './messages.ts';

// Bodies are checked as sent: "12" is not a number. Query strings and path parameters
// are text by nature, so they are coerced ("12" → 12, one value → a list of one).
const bodyAjv = createAjv();
const textAjv = createAjv({ coerce: true });

/** Fastify validator compiler for the resource routes: the shared ajv setup. */
export const resourceValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);

const MAX_FIELD_ERRORS = 50;

/** ajv errors as field-level problems in `lang`; the field is a dot path ("categories.2"). */
export function fieldErrors(errors: readonly ErrorObject[], lang: Lang, context?: string): FieldError[] {
  // localize rewrites `message` in place: work on copies, the originals may be cached.
  const copies = errors.filter((e) => e.keyword !== 'if').map((e) => ({ ...e }));
  localize[lang](copies);
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of copies) {
    const path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean).map(unescape).join('.');
    const extra =
      e.keyword === 'required' ? String(e.params.missingProperty) : e.keyword === 'additionalProperties' ? String(e.params.additionalProperty) : '';
    const field = [path, extra].filter(Boolean).join('.') || context || 'body';
    const key = `${field}\u0000${e.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, message: e.message ?? 'invalid' });
    if (out.length >= MAX_FIELD_ERRORS) break;
  }
  return out;
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The 40001 refusal for failed validation, with the first problems in the message. */
export function invalidInput(errors: FieldError[]) {
  const detail = errors
    .slice(0, 3)
    .map((e) => `${e.field} ${e.message}`)
    .join('; ');
  return business(msg['resource.invalid'], { detail: errors.length > 3 ? `${detail}; …` : detail }, errors);
}

/** Fastify's attached validation error (attachValidation) as our localised refusal. */
export function refuseValidation(error: Error & { validation?: ErrorObject[]; validationContext?: string }, lang: Lang) {
  return invalidInput(fieldErrors(error.validation ?? [], lang, error.validationContext));
}
