import type { FormRule as Rule } from 'antd';

/** Spec sections 5 and 9. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 30;
export const PASSWORD_PATTERN = /^\w{6,20}$/;
export const PHONE_PATTERN = /^1[3-8]\d{9}$/;
export const CODE_LENGTH = 6;
/** Spec section 9: the send button stays loading this long after a send. */
export const RESEND_DELAY_MS = 6000;

type Translate = (key: string) => string;

/**
 * The form rules of spec section 5 with its messages. The 6–30 length and the 6–20 word
 * pattern share the pattern's message (the pattern is the effective limit); each field
 * shows its first failing rule only (validateFirst on the items).
 */
export function passwordRules(t: Translate): Rule[] {
  return [
    { required: true, message: t('shell.password.passwordRequired') },
    { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('shell.password.passwordRule') },
    { pattern: PASSWORD_PATTERN, message: t('shell.password.passwordRule') },
  ];
}

export function phoneRules(t: Translate): Rule[] {
  return [
    { required: true, message: t('shell.password.phoneRequired') },
    { pattern: PHONE_PATTERN, message: t('shell.password.phoneFormat') },
  ];
}

export function codeRules(t: Translate): Rule[] {
  return [{ required: true, len: CODE_LENGTH, message: t('shell.password.codeRequired') }];
}
