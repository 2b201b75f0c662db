import { Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { userInfoAtom } from '../../session/atoms.ts';
import { consoleConfigAtom } from '../state/atoms.ts';
import { showsHeaderTitle } from './header-title.ts';


/** The header title of spec section 1, only for users of the configured city. */
export function HeaderTitle() {
  const { t } = useTranslation();
  const info = useAtomValue(userInfoAtom);
  const config = useAtomValue(consoleConfigAtom);
  if (!showsHeaderTitle(info?.city, config?.headerTitleCity)) return null;
  return (
    <Typography.Text strong ellipsis style={{ fontSize: 16, color: '#2f8f4e', minWidth: 0 }} data-testid="header-title">
      {t('shell.headerTitle')}
    </Typography.Text>
  );
}
