/**
 * The forms' validator: rjsf's ajv with the rules of every field (runtime/schema/input-rules.ts)
 * and its errors in the server's words (runtime/schema/messages.ts), one per language.
 * Pure code, so that a unit test checks the very validator the forms use.
 */
import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { addInputKeywords } from '../schema/input-rules.ts';
import { localizeErrors } from '../schema/messages.ts';
import type { Lang } from '../schema/texts.ts';

export type FormValidator = ReturnType<typeof customizeValidator<Record<string, unknown>, RJSFSchema>>;

const validators = new Map<Lang, FormValidator>();

export function formValidator(lang: Lang): FormValidator {
  let v = validators.get(lang);
  if (!v) {
    v = customizeValidator<Record<string, unknown>, RJSFSchema>({ extenderFn: addInputKeywords }, (errors) => localizeErrors(errors, lang));
    validators.set(lang, v);
  }
  return v;
}
