import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../services/context.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../i18n/languages.ts';
import { createShellApi, type ShellApi } from './shell-api.ts';

export function useShellApi(): ShellApi {
  const { data } = useServices();
  return useMemo(() => createShellApi(data), [data]);
}

/** The console's current language; components using it re-render when it changes. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
