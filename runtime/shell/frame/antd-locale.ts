import type { ConfigProviderProps } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import esES from 'antd/locale/es_ES';
import type { Language } from '../../i18n/languages.ts';

export const antdLocales: Record<Language, NonNullable<ConfigProviderProps['locale']>> = { zh: zhCN, en: enUS, es: esES };
