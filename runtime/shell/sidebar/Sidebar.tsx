import { Drawer, Layout, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_PATH } from '../../routing/access.ts';
import { userInfoAtom } from '../../session/atoms.ts';
import { baseInfoAtom } from '../state/atoms.ts';
import type { Device } from './device.ts';
import { SideMenu } from './SideMenu.tsx';

/** Wide enough for the English and Spanish menu labels; longer ones show whole in a tooltip. */
export const SIDEBAR_WIDTH = 256;
export const SIDEBAR_COLLAPSED_WIDTH = 64;
const DEFAULT_LOGO = '/logo.svg';

/**
 * The sidebar: on desktop a Sider that collapses to icons; in mobile mode a drawer over
 * the page, closed on entering mobile mode (no animation: it is simply not open) and
 * after following a link.
 */
export function Sidebar({ device, opened, onClose }: { device: Device; opened: boolean; onClose(): void }) {
  if (device === 'mobile') {
    return (
      <Drawer
        placement="left"
        open={opened}
        onClose={onClose}
        size={SIDEBAR_WIDTH}
        closable={false}
        styles={{ body: { padding: 0 } }}
        data-testid="sidebar-drawer"
      >
        <SidebarLogo collapsed={false} onNavigate={onClose} />
        <SideMenu onNavigate={onClose} />
      </Drawer>
    );
  }
  return (
    <Layout.Sider
      width={SIDEBAR_WIDTH}
      collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
      collapsed={!opened}
      trigger={null}
      theme="light"
      style={{ borderInlineEnd: '1px solid #f0f0f0', overflow: 'auto', height: '100vh', position: 'sticky', top: 0 }}
      data-testid="sidebar"
      data-collapsed={!opened}
    >
      <SidebarLogo collapsed={!opened} />
      <SideMenu collapsed={!opened} />
    </Layout.Sider>
  );
}

/** The organisation's logo (base info attr2), the product name beside it when there is room. */
function SidebarLogo({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const info = useAtomValue(userInfoAtom);
  const base = useAtomValue(baseInfoAtom);
  const logo = (base && info && String(base.userId) === String(info.id) && base.info.attr2) || DEFAULT_LOGO;
  return (
    <Link
      to={HOME_PATH}
      onClick={onNavigate}
      aria-label={collapsed ? t('app.name') : undefined}
      style={{ display: 'flex', alignItems: 'center', gap: 8, padding: collapsed ? '16px 18px' : '16px 20px', minHeight: 64 }}
    >
      <img src={logo} alt="" width={28} height={28} data-testid="sidebar-logo" style={{ objectFit: 'contain', flex: 'none' }} />
      {!collapsed && (
        // Two lines rather than an ellipsis: "Plataforma de gestión de granjas inteligentes" is read whole.
        <Typography.Text strong style={{ lineHeight: 1.3, whiteSpace: 'normal' }} title={t('app.name')} data-testid="sidebar-title">
          {t('app.name')}
        </Typography.Text>
      )}
    </Link>
  );
}
