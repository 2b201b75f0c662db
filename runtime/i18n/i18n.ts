import { createInstance, type i18n as I18n } from 'i18next';
import zh from '../../locales/zh.json';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from './languages.ts';

export const runtimeMessages = { zh, en, es } as const;

/**
 * An i18next instance over the runtime's own strings (locales/*.json). Initialised
 * synchronously so that the first render and the unit tests have every text at once.
 */
export function createI18n(language: Language = DEFAULT_LANGUAGE): I18n {
  const instance = createInstance();
  void instance.init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    resources: {
      zh: { translation: zh },
      en: { translation: en },
      es: { translation: es },
    },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

export function currentLanguage(i18n: I18n): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
