import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Form, Input, Space, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useServices } from '../../app/context.ts';
import { isHttpError } from '../../http/errors.ts';
import { afterLoginTarget, START_PATH } from '../../routing/access.ts';
import { LanguageSwitch } from '../layout/LanguageSwitch.tsx';

// Loaded when opened: most visits to /login only sign in, and the login page has a bundle budget.
const RegisterDialog = lazy(() => import('./login/RegisterDialog.tsx'));
const PasswordDialog = lazy(() => import('../password/PasswordDialog.tsx').then((m) => ({ default: m.PasswordDialog })));

type Panel = 'register' | 'forgot' | null;

interface Credentials {
  username: string;
  password: string;
}

/**
 * /login: username (trimmed) and password; the server's refusal is shown above the button.
 * Registration and the forgot-password flow (SMS code) open as dialogs here, since the
 * token-free paths are exactly those of spec 2.1.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [panel, setPanel] = useState<Panel>(null);
  // A dialog stays mounted once opened so that its closing animation can run.
  const [opened, setOpened] = useState<Set<Panel>>(() => new Set());
  const show = (p: Panel) => {
    setOpened((s) => new Set(s).add(p));
    setPanel(p);
  };
  const { session } = useServices();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (values: Credentials) => {
    setBusy(true);
    setError(null);
    try {
      await session.login(values.username, values.password);
      void navigate(afterLoginTarget(search), { replace: true });
    } catch (e) {
      setError((isHttpError(e) && e.serverMessage) || t('login.failed'));
      setBusy(false);
    }
  };

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: 'linear-gradient(160deg, #e8f5ec 0%, #f7faf7 60%)', padding: 16 }}>
      <main style={{ width: '100%', maxWidth: 400 }}>
        <Card>
          <Space orientation="vertical" size="large" style={{ width: '100%' }}>
            <Space style={{ width: '100%', justifyContent: 'space-between' }} align="center">
              <Space align="center">
                <img src="/logo.svg" alt="" width={32} height={32} />
                <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
                  {t('app.name')}
                </Typography.Title>
              </Space>
            </Space>
            <Space style={{ width: '100%', justifyContent: 'space-between' }} align="center">
              <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
                {t('login.title')}
              </Typography.Title>
              <LanguageSwitch />
            </Space>
            <Form<Credentials> name="login" layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)} disabled={busy}>
              <Form.Item
                label={t('login.username')}
                name="username"
                rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
              >
                <Input prefix={<UserOutlined aria-hidden />} autoComplete="username" maxLength={64} autoFocus />
              </Form.Item>
              <Form.Item label={t('login.password')} name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
                <Input.Password prefix={<LockOutlined aria-hidden />} autoComplete="current-password" maxLength={128} />
              </Form.Item>
              {error && <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} data-testid="login-error" />}
              <Button type="primary" htmlType="submit" block loading={busy}>
                {t('login.submit')}
              </Button>
            </Form>
            <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
              <Button type="link" style={{ padding: 0 }} onClick={() => show('forgot')} data-testid="login-forgot">
                {t('loginHelp.forgot')}
              </Button>
              <Button type="link" style={{ padding: 0 }} onClick={() => show('register')} data-testid="login-register">
                {t('loginHelp.register')}
              </Button>
            </Space>
            <Link to={START_PATH}>{t('login.toStartPage')}</Link>
          </Space>
        </Card>
        <Suspense fallback={null}>
          {opened.has('register') ? <RegisterDialog open={panel === 'register'} onClose={() => setPanel(null)} /> : null}
          {opened.has('forgot') ? (
            <PasswordDialog
              open={panel === 'forgot'}
              title={t('loginHelp.forgotTitle')}
              onCancel={() => setPanel(null)}
              onSaved={() => {
                setPanel(null);
                void message.success(t('loginHelp.passwordReset'));
              }}
            />
          ) : null}
        </Suspense>
      </main>
    </div>
  );
}
