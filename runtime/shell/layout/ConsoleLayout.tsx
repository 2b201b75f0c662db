import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Layout, Space, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigate } from 'react-router-dom';
import { useServices } from '../../app/context.ts';
import { HOME_PATH, LOGIN_PATH } from '../../routing/access.ts';
import { userInfoAtom } from '../../session/atoms.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { OrganisationLabel } from './OrganisationLabel.tsx';
import { SideMenu } from './SideMenu.tsx';

const { Header, Sider, Content } = Layout;

/** The logged-in layout: side menu, a header with the user, language and log out, the page. */
export function ConsoleLayout() {
  const { t } = useTranslation();
  const { session } = useServices();
  const navigate = useNavigate();
  const info = useAtomValue(userInfoAtom);
  const [leaving, setLeaving] = useState(false);

  const logout = async () => {
    setLeaving(true);
    await session.logout();
    void navigate(LOGIN_PATH, { replace: true });
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Sider width={232} theme="light" breakpoint="lg" collapsedWidth={0} style={{ borderInlineEnd: '1px solid #f0f0f0' }}>
        <Link to={HOME_PATH} style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '16px 20px' }}>
          <img src="/logo.svg" alt="" width={28} height={28} />
          <Typography.Text strong>{t('app.name')}</Typography.Text>
        </Link>
        <SideMenu />
      </Sider>
      <Layout>
        <Header style={{ background: '#fff', paddingInline: 24, display: 'flex', justifyContent: 'flex-end', borderBottom: '1px solid #f0f0f0' }}>
          <Space size="middle">
            <Space size={4}>
              <UserOutlined aria-hidden />
              <span data-testid="user-name">{info?.name}</span>
              {info && <OrganisationLabel info={info} />}
            </Space>
            <LanguageSwitch />
            <Button icon={<LogoutOutlined />} loading={leaving} onClick={() => void logout()}>
              {t('layout.logout')}
            </Button>
          </Space>
        </Header>
        <Content style={{ padding: 24 }}>
          <main>
            <Outlet />
          </main>
        </Content>
      </Layout>
    </Layout>
  );
}
