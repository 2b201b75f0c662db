import { App as AntApp, ConfigProvider } from 'antd';
import { Provider as JotaiProvider } from 'jotai';
import { useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter, useNavigate } from 'react-router-dom';
import { antdNotifier } from '../http/antd-notifier.ts';
import { isLanguage, DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { AppRoutes } from '../shell/AppRoutes.tsx';
import { antdLocales } from './antd-locale.ts';
import { ServicesContext, useServices } from './context.ts';
import type { ScreenRoute } from './screens.ts';
import type { ConsoleServices } from './services.ts';

export interface ConsoleAppProps {
  services: ConsoleServices;
  /** Gated screens (from the schema runtime); none means only the built-in pages. */
  screens?: readonly ScreenRoute[];
}

/** The whole console: providers, the router and the routes. */
export function ConsoleApp({ services, screens = [] }: ConsoleAppProps) {
  return (
    <ServicesContext.Provider value={services}>
      <JotaiProvider store={services.store}>
        <I18nextProvider i18n={services.i18n}>
          <Themed>
            <NotifierBridge />
            <BrowserRouter>
              <NavigatorBridge />
              <AppRoutes screens={screens} />
            </BrowserRouter>
          </Themed>
        </I18nextProvider>
      </JotaiProvider>
    </ServicesContext.Provider>
  );
}

function Themed({ children }: { children: React.ReactNode }) {
  const { i18n } = useTranslation();
  const { persistence } = useServices();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  // Button texts stay exactly as written (the catalogue's 取消, not antd's spaced 取 消).
  return (
    <ConfigProvider
      locale={antdLocales[language]}
      componentSize={persistence.size ?? 'middle'}
      button={{ autoInsertSpace: false }}
      theme={{ token: { colorPrimary: '#2f8f4e' } }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}

/** Hands antd's message and Modal (themed, localised) to the HTTP client. */
function NotifierBridge() {
  const { notifier } = useServices();
  const { message, modal } = AntApp.useApp();
  useEffect(() => notifier.attach(antdNotifier({ message, modal })), [notifier, message, modal]);
  return null;
}

/** Lets code outside React (the client's "go to /login") navigate without a page load. */
function NavigatorBridge() {
  const services = useServices();
  const navigate = useNavigate();
  useEffect(() => services.setNavigator((path) => void navigate(path)), [services, navigate]);
  return null;
}
