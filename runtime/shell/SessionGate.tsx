import { App, Spin } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { useServices } from '../services/context.ts';
import { resolveSession } from '../routing/session-flow.ts';
import { tokenAtom, userInfoAtom } from '../session/atoms.ts';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

const REFUSAL_SECONDS = 5;

/**
 * The session flow of spec section 4 in front of every gated page: with a token but no
 * user info yet, fetch it (and the menu tree); refuse an account without menus; on
 * failure clear the session and show the server's message. The access rules have
 * already sent token-less visitors to /login, so without a token only a public path
 * that matches no page gets here.
 */
export function SessionGate() {
  const { auth, session } = useServices();
  const { message } = App.useApp();
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const info = useAtomValue(userInfoAtom);

  useEffect(() => {
    if (!token || info) return;
    let cancelled = false;
    // The flow reports its own errors, so the catalogue's boxes stay quiet here.
    void resolveSession({
      userInfo: () => auth.userInfo(token, { quiet: true }),
      menuTree: () => auth.menuTree(token, { quiet: true }),
    }).then((outcome) => {
      if (cancelled) return;
      if (outcome.kind === 'ready') {
        session.adopt(outcome.info, outcome.menus);
        return;
      }
      session.clearLocal();
      const text = outcome.kind === 'refused' ? t('session.noMenus') : outcome.message || t('session.verifyFailed');
      void message.error(text, REFUSAL_SECONDS);
    });
    return () => {
      cancelled = true;
    };
  }, [token, info, auth, session, message, t]);

  // Coming back to the tab re-reads user info: a role change shows up without a reload,
  // and a session revoked elsewhere meets the catalogue's 40101 box.
  useEffect(() => {
    if (!token || !info) return;
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      auth.userInfo(token).then(
        (fresh) => {
          if (fresh.menus.length > 0) {
            session.adopt(fresh);
            return;
          }
          session.clearLocal();
          void message.error(t('session.noMenus'), REFUSAL_SECONDS);
        },
        () => undefined,
      );
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [token, info, auth, session, message, t]);

  if (!token) return <NotFoundPage />;
  if (!info) {
    return (
      <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }} role="status" aria-live="polite">
        <Spin size="large" description={t('app.loading')} />
      </div>
    );
  }
  return <Outlet />;
}
