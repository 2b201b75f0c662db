/**
 * Asks before leaving a form with unsaved changes: in-app navigation (links, menu, tabs,
 * programmatic navigate) and closing or reloading the browser tab (beforeunload).
 *
 * The console mounts a <BrowserRouter>, where react-router's useBlocker is not available
 * (it needs a data router), so the guard wraps the router's navigator while the form is
 * dirty. The browser's own back button moves history before the app hears of it and is
 * not intercepted.
 */
import { App as AntApp } from 'antd';
import { useContext, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSAFE_NavigationContext } from 'react-router-dom';

export function useLeaveGuard(dirty: boolean): { allowNextLeave: () => void } {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const { modal } = AntApp.useApp();
  const { t } = useTranslation();
  const allow = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    allow.current = false;
    const nav = navigator as typeof navigator & Record<'push' | 'replace' | 'go', (...args: never[]) => void>;
    const original = { push: nav.push, replace: nav.replace, go: nav.go };
    const guarded =
      (fn: (...args: never[]) => void) =>
      (...args: never[]) => {
        if (allow.current) return fn.apply(nav, args);
        void (async () => {
          const ok = await modal.confirm({ title: t('screens.form.leaveTitle'), content: t('screens.form.leaveText'), okText: t('screens.form.leave'), cancelText: t('screens.form.stay') });
          if (!ok) return;
          allow.current = true;
          fn.apply(nav, args);
        })();
      };
    nav.push = guarded(original.push);
    nav.replace = guarded(original.replace);
    nav.go = guarded(original.go);
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (allow.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      nav.push = original.push;
      nav.replace = original.replace;
      nav.go = original.go;
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty, navigator, modal, t]);

  return { allowNextLeave: () => void (allow.current = true) };
}
