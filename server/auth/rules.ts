import type { FieldError } from '../http/envelope.ts';
import type { Lang } from '../i18n/lang.ts';
import { t } from '../i18n/catalog.ts';
import { authMessages as M } from './messages.ts';

/** Spec section 5: the rules of the password-change form, enforced on the server too. */
export const PHONE_PATTERN = /^1[3-8]\d{9}$/;
export const PASSWORD_PATTERN = /^\w{6,20}$/;
export const CODE_PATTERN = /^\d{6}$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,30}$/;

type Key = keyof typeof M;
export interface RuleError {
  field: string;
  key: Key;
}

export function phoneRule(phone: string | undefined, field = 'phone'): RuleError | null {
  if (!phone) return { field, key: 'auth.phoneRequired' };
  return PHONE_PATTERN.test(phone) ? null : { field, key: 'auth.phoneFormat' };
}

export function passwordRule(password: string | undefined, field = 'password'): RuleError | null {
  if (!password) return { field, key: 'auth.passwordRequired' };
  // The pattern ASCII-only on purpose: \w in JS without the u flag is [A-Za-z0-9_].
  return PASSWORD_PATTERN.test(password) ? null : { field, key: 'auth.passwordRule' };
}

export function codeRule(code: string | undefined, field = 'code'): RuleError | null {
  return code && code.length === 6 ? null : { field, key: 'auth.codeRequired' };
}

/** The field errors in the request's language, for `business(key, {}, details)`. */
export function fieldErrors(errors: RuleError[]): (lang: Lang) => FieldError[] {
  return (lang) => errors.map((e) => ({ field: e.field, message: t(lang, e.key) }));
}
