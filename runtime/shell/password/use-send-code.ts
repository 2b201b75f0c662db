/**
 * The SMS code button of spec 2.7, 4 and 9, for every form that sends one (the password
 * dialog, registration): validate the phone field first, send, keep the button loading
 * for 6 s, then read "resend"; a refusal goes under the phone field.
 */
import type { FormInstance } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../http/errors.ts';
import { RESEND_DELAY_MS } from './rules.ts';

export function useSendCode<F extends { phone: string }>(form: FormInstance<F>, send: (phone: string) => Promise<unknown>) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const sendCode = async () => {
    let phone: string;
    try {
      phone = String((await form.validateFields(['phone'])).phone).trim();
    } catch {
      return;
    }
    setSending(true);
    if (timer.current) clearTimeout(timer.current);
    try {
      await send(phone);
      timer.current = setTimeout(() => {
        setSending(false);
        setSentOnce(true);
      }, RESEND_DELAY_MS);
    } catch (e) {
      setSending(false);
      const text = (isHttpError(e) && (e.fieldErrors.find((f) => f.field === 'phone')?.message ?? e.serverMessage)) || t('shell.password.sendFailed');
      form.setFields([{ name: 'phone', errors: [text] } as Parameters<FormInstance<F>['setFields']>[0][number]]);
    }
  };

  return { sendCode, sending, label: sentOnce ? t('shell.password.resend') : t('shell.password.send') };
}
