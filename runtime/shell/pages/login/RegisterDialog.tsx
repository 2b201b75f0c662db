/**
 * Registration from the login page (spec 7.1 `regist`): the person, their organisation,
 * and an SMS code sent to the phone (`sms/send`). The request is not an account yet: it
 * waits in /registRequestManage until an administrator approves it, which the dialog says
 * once the server has accepted it. Reached without a token, so it stays a dialog on /login
 * (the public paths are those of spec 2.1).
 */
import { App, Button, Col, Form, Input, Modal, Result, Row, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../../services/context.ts';
import { isHttpError } from '../../../http/errors.ts';
import { codeRules, passwordRules, phoneRules } from '../../password/rules.ts';
import { useSendCode } from '../../password/use-send-code.ts';

/** Spec 7.1: the organisation types a registration may ask for. */
const ORG_TYPES = [
  { value: 0, key: 'org.farm' },
  { value: 1, key: 'org.manufacturer' },
  { value: 3, key: 'org.center' },
  { value: 4, key: 'org.seedlingBase' },
] as const;

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,30}$/;

interface RegisterForm {
  username: string;
  name: string;
  phone: string;
  code: string;
  password: string;
  confirm: string;
  orgName: string;
  orgType: number;
  city?: string;
  address?: string;
  contact?: string;
}

const FIELDS = new Set(['username', 'name', 'phone', 'code', 'password', 'orgName', 'orgType', 'city', 'address', 'contact']);

export default function RegisterDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { data } = useServices();
  const { message } = App.useApp();
  const [form] = Form.useForm<RegisterForm>();
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const { sendCode, sending, label: sendLabel } = useSendCode(form, (phone) =>
    data.call('sendRegistrationCode', { params: { phone }, quiet: true }),
  );

  const submit = async () => {
    let v: RegisterForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const env = await data.call('register', {
        quiet: true,
        body: {
          username: v.username.trim(),
          name: v.name.trim(),
          phone: v.phone.trim(),
          code: v.code.trim(),
          password: v.password,
          orgName: v.orgName.trim(),
          orgType: v.orgType,
          city: v.city?.trim() || undefined,
          address: v.address?.trim() || undefined,
          contact: v.contact?.trim() || undefined,
        },
      });
      setDone(env.message || t('loginHelp.registered'));
    } catch (e) {
      if (isHttpError(e)) {
        const known = e.fieldErrors.filter((f) => FIELDS.has(f.field));
        if (known.length) form.setFields(known.map((f) => ({ name: f.field as keyof RegisterForm, errors: [f.message] })));
        else void message.error(e.serverMessage ?? t('shell.password.failed'));
      } else void message.error(t('shell.password.failed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('loginHelp.registerTitle')}
      onCancel={onClose}
      destroyOnHidden
      width={640}
      data-testid="register-dialog"
      footer={
        done
          ? [
              <Button key="ok" type="primary" onClick={onClose} data-testid="register-close">
                {t('loginHelp.backToLogin')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                {t('shell.password.cancel')}
              </Button>,
              <Button key="save" type="primary" loading={saving} onClick={() => void submit()} data-testid="register-submit">
                {t('loginHelp.submit')}
              </Button>,
            ]
      }
    >
      {done ? (
        <Result status="success" title={done} subTitle={t('loginHelp.registeredHint')} data-testid="register-done" />
      ) : (
        <Form<RegisterForm> form={form} layout="vertical" name="register" autoComplete="off" requiredMark onFinish={() => void submit()}>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item
                name="username"
                label={t('login.username')}
                validateFirst
                rules={[
                  { required: true, whitespace: true, message: t('login.usernameRequired') },
                  { pattern: USERNAME_PATTERN, message: t('loginHelp.usernameRule') },
                ]}
              >
                <Input autoComplete="username" maxLength={30} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="name" label={t('loginHelp.name')} rules={[{ required: true, whitespace: true, message: t('loginHelp.nameRequired') }]}>
                <Input autoComplete="name" maxLength={50} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="password" label={t('login.password')} rules={passwordRules(t)} validateFirst>
                <Input.Password autoComplete="new-password" maxLength={30} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name="confirm"
                label={t('loginHelp.confirmPassword')}
                dependencies={['password']}
                validateFirst
                rules={[
                  { required: true, message: t('loginHelp.confirmRequired') },
                  ({ getFieldValue }) => ({
                    validator: (_r, value) => (value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('loginHelp.confirmMismatch')))),
                  }),
                ]}
              >
                <Input.Password autoComplete="new-password" maxLength={30} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item label={t('shell.password.phone')} required>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item name="phone" rules={phoneRules(t)} validateFirst noStyle>
                    <Input inputMode="numeric" maxLength={11} aria-label={t('shell.password.phone')} />
                  </Form.Item>
                  <Button onClick={() => void sendCode()} loading={sending} data-testid="register-send">
                    {sendLabel}
                  </Button>
                </Space.Compact>
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="code" label={t('shell.password.code')} rules={codeRules(t)} validateFirst>
                <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="orgName" label={t('loginHelp.orgName')} rules={[{ required: true, whitespace: true, message: t('loginHelp.orgNameRequired') }]}>
                <Input autoComplete="organization" maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="orgType" label={t('loginHelp.orgType')} rules={[{ required: true, message: t('loginHelp.orgTypeRequired') }]}>
                <Select options={ORG_TYPES.map((o) => ({ value: o.value, label: t(o.key) }))} aria-label={t('loginHelp.orgType')} data-testid="register-org-type" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item name="city" label={t('loginHelp.city')}>
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item name="contact" label={t('loginHelp.contact')}>
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item name="address" label={t('loginHelp.address')}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      )}
    </Modal>
  );
}
