import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../services/context.ts';
import { isLanguage, LANGUAGES, DEFAULT_LANGUAGE } from '../../i18n/languages.ts';

/** zh / en / es; the choice is kept in the `language` cookie, which the server reads too. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const { setLanguage } = useServices();
  const value = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return (
    <Select
      aria-label={t('language.label')}
      data-testid="language-switch"
      value={value}
      style={{ width: 112 }}
      onChange={(lang) => void setLanguage(lang)}
      options={LANGUAGES.map((lang) => ({ value: lang, label: t(`language.${lang}`) }))}
    />
  );
}
