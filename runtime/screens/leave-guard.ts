/**
 * Asks before leaving a form with unsaved changes: in-app navigation (links, menu, tabs,
 * programmatic navigate) and closing or reloading the browser tab (beforeunload).
 *
 * The console mounts a <BrowserRouter>, where react-router's useBlocker is not available
 * (it needs a data router), so the router's navigator is wrapped, once, by a gate that asks
 * the dirty forms registered with it. Forms register and leave in any order (a form kept
 * alive in a hidden tab, a form in a dialog over a routed one): wrapping the navigator per
 * form and restoring "the original" on cleanup could leave a gone form's question in place,
 * one that no dialog shows, and every link would then do nothing. The browser's own back
 * button moves history before the app hears of it and is not intercepted.
 */
import { App as AntApp } from 'antd';
import { useContext, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSAFE_NavigationContext } from 'react-router-dom';

interface Guard {
  /** Set once the user agreed to leave (or the form saved): this form asks no more. */
  allow: { current: boolean };
  ask(): Promise<boolean>;
}

type Method = 'push' | 'replace' | 'go';
const gates = new WeakMap<object, Set<Guard>>();

/** The dirty forms' set of `navigator`, wrapping its methods the first time. */
function gateOf(navigator: object): Set<Guard> {
  const known = gates.get(navigator);
  if (known) return known;
  const active = new Set<Guard>();
  gates.set(navigator, active);
  const nav = navigator as Record<Method, (...args: unknown[]) => unknown>;
  for (const method of ['push', 'replace', 'go'] as const) {
    const original = nav[method];
    nav[method] = (...args: unknown[]) => {
      const asking = [...active].filter((g) => !g.allow.current);
      if (!asking.length) return original.apply(nav, args);
      void (async () => {
        // The newest form asks; agreeing leaves all of them.
        if (!(await asking[asking.length - 1].ask())) return;
        for (const g of asking) g.allow.current = true;
        original.apply(nav, args);
      })();
    };
  }
  return active;
}

export function useLeaveGuard(dirty: boolean): { allowNextLeave: () => void } {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const { modal } = AntApp.useApp();
  const { t } = useTranslation();
  const allow = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    allow.current = false;
    const guard: Guard = {
      allow,
      ask: async () => !!(await modal.confirm({ title: t('screens.form.leaveTitle'), content: t('screens.form.leaveText'), okText: t('screens.form.leave'), cancelText: t('screens.form.stay') })),
    };
    const guards = gateOf(navigator);
    guards.add(guard);
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (allow.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      guards.delete(guard);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty, navigator, modal, t]);

  return { allowNextLeave: () => void (allow.current = true) };
}
