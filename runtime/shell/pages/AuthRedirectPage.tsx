import { Alert, Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { afterLoginTarget, LOGIN_PATH } from '../../routing/access.ts';
import { useServices } from '../../services/context.ts';

/**
 * /auth-redirect?token=…&redirect=…: the sign-in redirect target (single sign-on from another
 * system). The token is checked with the server (user info) before anything is stored; a
 * valid one becomes the session's, and the user goes on to `redirect` (a path of this
 * console only, as after logging in) or the dashboard. The token leaves the address bar at once.
 */
export function AuthRedirectPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const navigate = useNavigate();
  const { auth, session } = useServices();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const token = new URLSearchParams(search).get('token')?.trim();
    const target = afterLoginTarget(search);
    if (!token) {
      setFailed(true);
      return;
    }
    let cancelled = false;
    auth
      .userInfo(token, { quiet: true })
      .then(() => {
        if (cancelled) return;
        session.adoptToken(token);
        navigate(target, { replace: true });
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [search, auth, session, navigate]);

  if (failed) {
    return (
      <Result
        status="warning"
        title={t('authRedirect.failed')}
        subTitle={<Alert type="info" showIcon message={t('authRedirect.hint')} />}
        extra={
          <Link to={LOGIN_PATH}>
            <Button type="primary">{t('authRedirect.toLogin')}</Button>
          </Link>
        }
      />
    );
  }
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }} aria-busy="true">
      <Spin tip={t('authRedirect.checking')}>
        <div style={{ width: 200, height: 80 }} />
      </Spin>
    </div>
  );
}
