import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useServices } from '../../services/context.ts';
import { isHttpError } from '../../http/errors.ts';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES } from '../../i18n/languages.ts';
import { NOTICE_PARAM, PASSWORD_CHANGED, afterLoginTarget, START_PATH } from '../../routing/access.ts';
import type { HelpPanel } from './login/LoginHelpDialogs.tsx';
import { LockIcon, UserIcon } from './login/login-icons.tsx';
import './login/login.css';

// With antd, loaded when opened: most visits to /login only sign in, and the login page,
// which renders without antd, has a bundle budget.
const LoginHelpDialogs = lazy(() => import('./login/LoginHelpDialogs.tsx'));

interface FieldErrors {
  username?: string;
  password?: string;
}

/**
 * /login: username (trimmed) and password; the server's refusal is shown above the button.
 * Registration and the forgot-password flow (SMS code) open as dialogs here, since the
 * token-free paths are exactly those of spec 2.1.
 *
 * Plain React and login.css, no antd: /login is the first page most people load, and
 * antd's runtime alone is more than its budget (docs/console.md, Bundle).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const id = useId();
  const [panel, setPanel] = useState<HelpPanel | null>(null);
  const [opened, setOpened] = useState<ReadonlySet<HelpPanel>>(() => new Set());
  const show = (p: HelpPanel) => {
    setOpened((s) => new Set(s).add(p));
    setPanel(p);
  };
  const { session } = useServices();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // The fields are checked on submit and, once a submit has been tried, as they change.
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Sent here by the shell after the user changed their own password (which ends every token).
  const notice = new URLSearchParams(search).get(NOTICE_PARAM) === PASSWORD_CHANGED ? t('loginHelp.passwordReset') : null;

  const check = (u: string, p: string): FieldErrors => ({
    username: u.trim() ? undefined : t('login.usernameRequired'),
    password: p ? undefined : t('login.passwordRequired'),
  });
  const fieldErrors: FieldErrors = tried ? check(username, password) : {};

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    setTried(true);
    const problems = check(username, password);
    if (problems.username || problems.password) {
      document.getElementById(problems.username ? `${id}-username` : `${id}-password`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await session.login(username, password);
      void navigate(afterLoginTarget(search), { replace: true });
    } catch (err) {
      setError((isHttpError(err) && err.serverMessage) || t('login.failed'));
      setBusy(false);
    }
  };

  return (
    <div className="login-page">
      <main className="login-main">
        <div className="login-card">
          <div className="login-brand">
            <img src="/logo.svg" alt="" width={32} height={32} />
            <h1>{t('app.name')}</h1>
          </div>
          <div className="login-heading">
            <h2>{t('login.title')}</h2>
            <PlainLanguageSwitch />
          </div>
          <form id="login" name="login" className="login-form" noValidate onSubmit={(e) => void submit(e)} aria-busy={busy}>
            <Field
              id={`${id}-username`}
              label={t('login.username')}
              error={fieldErrors.username}
              icon={<UserIcon />}
              input={{ name: 'username', value: username, onChange: setUsername, autoComplete: 'username', maxLength: 64, autoFocus: true, type: 'text', disabled: busy }}
            />
            <Field
              id={`${id}-password`}
              label={t('login.password')}
              error={fieldErrors.password}
              icon={<LockIcon />}
              input={{ name: 'password', value: password, onChange: setPassword, autoComplete: 'current-password', maxLength: 128, type: 'password', disabled: busy }}
            />
            {notice && !error && (
              <div className="login-notice" role="status" data-testid="login-notice">
                {notice}
              </div>
            )}
            {error && (
              <div className="login-alert" role="alert" data-testid="login-error">
                {error}
              </div>
            )}
            <button type="submit" className="login-submit" disabled={busy}>
              {busy && <span className="login-spinner" aria-hidden="true" />}
              {t('login.submit')}
            </button>
          </form>
          <div className="login-help">
            <button type="button" className="login-link" onClick={() => show('forgot')} data-testid="login-forgot">
              {t('loginHelp.forgot')}
            </button>
            <button type="button" className="login-link" onClick={() => show('register')} data-testid="login-register">
              {t('loginHelp.register')}
            </button>
          </div>
          <Link className="login-link" to={START_PATH}>
            {t('login.toStartPage')}
          </Link>
        </div>
        {opened.size > 0 && (
          <Suspense fallback={null}>
            <LoginHelpDialogs panel={panel} opened={opened} onClose={() => setPanel(null)} />
          </Suspense>
        )}
      </main>
    </div>
  );
}

interface FieldProps {
  id: string;
  label: string;
  error: string | undefined;
  icon: React.ReactNode;
  input: {
    name: string;
    value: string;
    onChange(value: string): void;
    type: 'text' | 'password';
    autoComplete: string;
    maxLength: number;
    autoFocus?: boolean;
    disabled: boolean;
  };
}

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby) and announced. */
function Field({ id, label, error, icon, input }: FieldProps) {
  const { onChange, ...attrs } = input;
  return (
    <div className={error ? 'login-field login-field-invalid' : 'login-field'}>
      <label htmlFor={id}>{label}</label>
      <span className="login-input">
        {icon}
        <input
          id={id}
          {...attrs}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-required="true"
        />
      </span>
      <div id={`${id}-error`} className="login-field-error" role="alert">
        {error}
      </div>
    </div>
  );
}

/** zh / en / es as a native select (the shell's LanguageSwitch is antd's Select). */
function PlainLanguageSwitch() {
  const { t, i18n } = useTranslation();
  const { setLanguage } = useServices();
  const value = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return (
    <select
      className="login-language"
      aria-label={t('language.label')}
      data-testid="language-switch"
      value={value}
      onChange={(e) => {
        if (isLanguage(e.target.value)) void setLanguage(e.target.value);
      }}
    >
      {LANGUAGES.map((lang) => (
        <option key={lang} value={lang}>
          {t(`language.${lang}`)}
        </option>
      ))}
    </select>
  );
}
