import { DownOutlined, KeyOutlined, LogoutOutlined, PhoneOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { userInfoAtom } from '../../session/atoms.ts';
import { OrganisationLabel, organisationLabelText } from '../layout/OrganisationLabel.tsx';
import { useBaseInfo } from '../state/base-info.ts';

/** The user menu (spec 2.6): the phone number from base info, change password, log out. */
export function UserDropdown({ compact, onChangePassword, onLogout }: { compact: boolean; onChangePassword(): void; onLogout(): void }) {
  const { t } = useTranslation();
  const info = useAtomValue(userInfoAtom);
  const base = useBaseInfo();
  const phone = base?.mobilePhone;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          {
            key: 'phone',
            icon: <PhoneOutlined aria-hidden />,
            label: <span data-testid="user-phone">{phone || t('shell.user.noPhone')}</span>,
            disabled: true,
          },
          { type: 'divider' },
          { key: 'password', icon: <KeyOutlined aria-hidden />, label: t('shell.user.changePassword') },
          { key: 'logout', icon: <LogoutOutlined aria-hidden />, label: t('layout.logout'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'password') onChangePassword();
          if (key === 'logout') onLogout();
        },
      }}
    >
      <Button
        type="text"
        data-testid="user-menu"
        // The visible name and label are part of the accessible name (axe: label-content-name-mismatch).
        aria-label={[t('shell.user.menu', { name: info?.name ?? '' }), !compact && info ? organisationLabelText(info, t) : null].filter(Boolean).join(' ')}
        style={{ paddingInline: 8 }}
      >
        <Space size={4}>
          <UserOutlined aria-hidden />
          {!compact && <span data-testid="user-name">{info?.name}</span>}
          {!compact && info && <OrganisationLabel info={info} />}
          <DownOutlined aria-hidden style={{ fontSize: 10 }} />
        </Space>
      </Button>
    </Dropdown>
  );
}
