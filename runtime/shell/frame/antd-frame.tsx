import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import './antd-styles.css';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { antdNotifier } from '../../http/antd-notifier.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../../i18n/languages.ts';
import { useSize } from '../state/preferences.ts';
import { ACCESSIBLE_THEME } from '../theme.ts';
import { antdLocales } from './antd-locale.ts';
import { setDayjsLocale } from '../../format/locale.ts';
import { useServices } from '../../services/context.ts';

// antd's styles come from its own static CSS (antd-styles.css) instead of being generated
// at run time: the first table paints about 100 ms sooner. The colours are the shell's AA theme.
const THEME: ThemeConfig = { ...ACCESSIBLE_THEME, zeroRuntime: true };

// The click wave of buttons, checkboxes and switches costs a style computation and an
// animation on every click (≈80 ms in the first table's profile) and says nothing the
// pressed state does not.
const NO_WAVE = { disabled: true };
// Button texts stay exactly as written (the catalogue's 取消, not antd's spaced 取 消).
const BUTTON = { autoInsertSpace: false };

/**
 * antd's providers: locale, the global size (spec 2.6), the theme, no wave, and the App
 * that holds message and Modal. Everything but the login form stands in it; it is a chunk
 * of its own (with antd) so that /login renders without antd (lazy-antd.tsx).
 */
export function AntdTheme({ children }: { children?: ReactNode }) {
  const { i18n } = useTranslation();
  const size = useSize();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  // antd's pickers need both: ConfigProvider's locale (its words) and dayjs's (weekday and
  // month names, the first day of the week); set before the children render (runtime/format/locale.ts).
  setDayjsLocale(language);
  return (
    <ConfigProvider locale={antdLocales[language]} componentSize={size} button={BUTTON} wave={NO_WAVE} theme={THEME}>
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}

/** The providers plus the HTTP client's message and Modal: the console's one frame. */
export function AntdFrame({ children }: { children?: ReactNode }) {
  return (
    <AntdTheme>
      <NotifierBridge />
      {children}
    </AntdTheme>
  );
}

/** Hands antd's message and Modal (themed, localised) to the HTTP client. */
function NotifierBridge() {
  const { notifier } = useServices();
  const { message, modal } = AntApp.useApp();
  useEffect(() => notifier.attach(antdNotifier({ message, modal })), [notifier, message, modal]);
  return null;
}
