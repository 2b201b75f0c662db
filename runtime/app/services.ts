import { createStore } from 'jotai';
import type { i18n as I18n } from 'i18next';
import { productProfile } from '../../product/profile.ts';
import { createHttpClient } from '../http/client.ts';
import { createNotifierSlot } from '../http/notifier-slot.ts';
import { createI18n, currentLanguage } from '../i18n/i18n.ts';
import { DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { LOGIN_PATH } from '../routing/access.ts';
import type { ConsoleServices, Navigate, ProductProfile } from '../services/contract.ts';
import { createAuthApi } from '../session/auth-api.ts';
import { hiddenWithoutFarmAtom } from '../session/atoms.ts';
import { browserCookies, browserLocalStorage, type KeyValueStore } from '../session/key-value.ts';
import { SessionPersistence } from '../session/persistence.ts';
import { Session } from '../session/session.ts';
import { createAccessChecks } from './access.ts';
import { createDataProvider } from './data-provider.ts';

export type { ConsoleServices, Navigate } from '../services/contract.ts';

/** The console's services (the contract of runtime/services/contract.ts), with the product's profile. */
export function createConsoleServices(
  env: { cookies?: KeyValueStore; local?: KeyValueStore; baseUrl?: string; profile?: ProductProfile } = {},
): ConsoleServices {
  const persistence = new SessionPersistence(env.cookies ?? browserCookies(), env.local ?? browserLocalStorage());
  const store = createStore();
  const profile = env.profile ?? productProfile;
  store.set(hiddenWithoutFarmAtom, new Set(profile.menuCodesHiddenWithoutFarm));
  const i18n = createI18n(persistence.language ?? DEFAULT_LANGUAGE);
  const notifier = createNotifierSlot();
  let navigator: Navigate | null = null;
  const navigate: Navigate = (path) => (navigator ? navigator(path) : window.location.assign(path));

  // The client and the session need each other: confirming a 40101 box ends the session.
  let session: Session;
  const http = createHttpClient({
    baseUrl: env.baseUrl ?? '',
    getToken: () => persistence.token,
    getLanguage: () => currentLanguage(i18n),
    notifier,
    translate: (key) => i18n.t(key),
    endSession: () => {
      session.clearLocal();
      navigate(LOGIN_PATH);
    },
  });
  const auth = createAuthApi(http);
  session = new Session(persistence, store, auth);

  return {
    store,
    i18n,
    persistence,
    notifier,
    http,
    data: createDataProvider(http, { baseUrl: env.baseUrl ?? '', getToken: () => persistence.token, getLanguage: () => currentLanguage(i18n) }),
    access: createAccessChecks(store),
    auth,
    session,
    profile,
    navigate,
    setNavigator(next) {
      navigator = next;
      return () => {
        if (navigator === next) navigator = null;
      };
    },
    async setLanguage(language) {
      persistence.saveLanguage(language);
      await i18n.changeLanguage(language);
      applyDocumentLanguage(i18n);
    },
  };
}

/** The page's lang attribute and title follow the console's language. */
export function applyDocumentLanguage(i18n: I18n): void {
  const language = currentLanguage(i18n);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : language;
  document.title = i18n.t('app.name');
}
