import { App, Button, Form, Input, Modal, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../http/errors.ts';
import { useShellApi } from '../hooks.ts';
import type { ChangePasswordForm } from '../shell-api.ts';
import { codeRules, passwordRules, phoneRules } from './rules.ts';
import { useSendCode } from './use-send-code.ts';

export interface PasswordDialogProps {
  open: boolean;
  /** The user's phone from base info, filled in for convenience. */
  phone?: string | null;
  /** Fired whenever the dialog closes without saving: the close icon, Cancel, Esc, the mask. */
  onCancel(): void;
  /** Fired after the server accepted the new password. */
  onSaved(): void;
  /** Default "Change password"; the login page's forgot-password flow names itself. */
  title?: string;
}

/**
 * The password-change dialog of spec 2.7 and 5: new password, phone and SMS code. Unlike
 * the original (whose save handler returned before the call), Save really calls
 * POST /api/admin/user/front/changePassword and reports the outcome.
 */
export function PasswordDialog({ open, phone, onCancel, onSaved, title }: PasswordDialogProps) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const api = useShellApi();
  const [form] = Form.useForm<ChangePasswordForm>();
  const [saving, setSaving] = useState(false);
  const { sendCode, sending, label: sendLabel } = useSendCode(form, (phone) => api.sendChangePasswordCode(phone));

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ phone: phone ?? '' });
  }, [open, phone, form]);

  const save = async () => {
    let values: ChangePasswordForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await api.changePassword({ phone: values.phone.trim(), password: values.password, code: values.code.trim() });
      notification.success({ title: t('shell.password.success'), placement: 'topRight' });
      onSaved();
    } catch (e) {
      notification.error({ title: t('shell.password.failed'), description: isHttpError(e) ? e.serverMessage : undefined, placement: 'topRight' });
      if (isHttpError(e)) {
        const known = new Set(['phone', 'password', 'code']);
        form.setFields(e.fieldErrors.filter((f) => known.has(f.field)).map((f) => ({ name: f.field as keyof ChangePasswordForm, errors: [f.message] })));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title ?? t('shell.password.title')}
      onCancel={onCancel}
      destroyOnHidden
      data-testid="password-dialog"
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t('shell.password.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void save()} data-testid="password-save">
          {t('shell.password.save')}
        </Button>,
      ]}
    >
      <Form<ChangePasswordForm> form={form} layout="vertical" name="change-password" autoComplete="off" onFinish={() => void save()}>
        <Form.Item name="password" label={t('shell.password.newPassword')} rules={passwordRules(t)} validateFirst>
          <Input.Password autoComplete="new-password" maxLength={30} />
        </Form.Item>
        <Form.Item label={t('shell.password.phone')} required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="phone" rules={phoneRules(t)} validateFirst noStyle>
              <Input inputMode="numeric" maxLength={11} aria-label={t('shell.password.phone')} />
            </Form.Item>
            <Button onClick={() => void sendCode()} loading={sending} data-testid="password-send">
              {sendLabel}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="code" label={t('shell.password.code')} rules={codeRules(t)} validateFirst>
          <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
