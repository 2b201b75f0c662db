import type { ErrorObject } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { createAjv } from '../../runtime/schema/ajv.ts';
import { withInputRules } from '../../runtime/schema/input-rules.ts';
import { crossFieldProblems } from '../../runtime/schema/cross-rules.ts';
import { fieldProblems } from '../../runtime/schema/messages.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { business, type FieldError } from '../http/envelope.ts';
import type { Lang } from '../i18n/lang.ts';
import { msg } from './messages.ts';

// Bodies are checked as sent: "12" is not a number. Query strings and path parameters
// are text by nature, so they are coerced ("12" → 12, one value → a list of one).
const bodyAjv = createAjv();
const textAjv = createAjv({ coerce: true });

/**
 * Fastify validator compiler for the resource routes: the shared ajv setup. ajv keeps what
 * it compiled by schema object; a server builds its route schemas anew, so they are kept
 * here by content too: a second server in the process compiles nothing again
 * (server/http/shared-compilers.ts says why).
 */
const compiledByContent = new Map<string, ReturnType<typeof bodyAjv.compile>>();
export const resourceValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const body = httpPart === 'body';
  const key = `${body ? 'b' : 't'}${JSON.stringify(schema)}`;
  let fn = compiledByContent.get(key);
  if (!fn) {
    fn = (body ? bodyAjv : textAjv).compile(schema as object);
    compiledByContent.set(key, fn);
  }
  return fn;
};

const MAX_FIELD_ERRORS = 50;

/**
 * ajv errors as field-level problems in `lang`, in the words a form shows for the same
 * rule (runtime/schema/messages.ts); the field is a dot path ("categories.2").
 */
export function fieldErrors(errors: readonly ErrorObject[], lang: Lang, context?: string): FieldError[] {
  return fieldProblems(errors, lang, { context, max: MAX_FIELD_ERRORS });
}

/** The 40001 refusal for failed validation, with the first problems' sentences in the message. */
export function invalidInput(errors: FieldError[], lang?: Lang) {
  const sep = lang === 'zh' ? '；' : '; ';
  const detail = errors
    .slice(0, 3)
    .map((e) => e.message)
    .join(sep);
  return business(msg['resource.invalid'], { detail: errors.length > 3 ? `${detail}${sep}…` : detail }, errors);
}

/** Fastify's attached validation error (attachValidation) as our localised refusal. */
export function refuseValidation(error: Error & { validation?: ErrorObject[]; validationContext?: string }, lang: Lang) {
  return invalidInput(fieldErrors(error.validation ?? [], lang, error.validationContext), lang);
}

/** Refuses a record that breaks one of its document's cross-field rules (40001 on the rule's field). */
export function assertCrossFieldRules(doc: ResourceDocument, record: Record<string, unknown>, lang: Lang): void {
  const problems = crossFieldProblems(doc.rules, doc.record.properties, record, lang);
  if (problems.length) throw invalidInput(problems, lang);
}

/** A body validator compiled with the routes' own ajv setup (no coercion), for bodies a route builds itself (an import's rows). */
export function compileBodyValidator(schema: object) {
  // With the rules of every field, as the routes' own schemas get them (server/http/input-guard.ts).
  return bodyAjv.compile(withInputRules(schema));
}
