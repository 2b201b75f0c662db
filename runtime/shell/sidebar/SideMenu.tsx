import { Menu, type MenuProps } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { pickText, type Language } from '../../i18n/languages.ts';
import { menuLink } from '../../routing/route-table.ts';
import { permissionMenuAtom } from '../../session/atoms.ts';
import type { MenuItem } from '../../session/user-info.ts';
import { useLanguage } from '../hooks.ts';
import { MenuIcon } from './MenuIcon.tsx';

type Items = NonNullable<MenuProps['items']>;

/** Spec section 9: submenus open 200 ms after the pointer arrives (antd counts seconds). */
export const SUBMENU_OPEN_DELAY_S = 0.2;

/**
 * Two levels from the server's menu tree, filtered and sorted as spec section 6 says
 * (permissionMenuAtom); hidden entries are routable but not listed. Links are
 * /{parent path}/{child path}. One submenu is open at a time.
 */
export function SideMenu({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const menu = useAtomValue(permissionMenuAtom);
  const { pathname } = useLocation();
  const language = useLanguage();
  const items = useMemo(() => toItems(menu, language, onNavigate), [menu, language, onNavigate]);
  const section = menu.find((m) => pathname === menuLink(m.path) || pathname.startsWith(menuLink(m.path) + '/'));
  const selected = selectedKey(pathname, section);
  const [openKeys, setOpenKeys] = useState<string[]>([]);

  // The section of the current page opens by itself (expanded sidebar only: collapsed, submenus are pop-ups).
  useEffect(() => {
    setOpenKeys(!collapsed && section ? [section.code] : []);
  }, [collapsed, section?.code]);

  const onOpenChange: MenuProps['onOpenChange'] = (keys) => {
    const opened = keys.find((k) => !openKeys.includes(k));
    setOpenKeys(opened ? [opened] : keys.filter((k) => openKeys.includes(k)).slice(-1));
  };

  return (
    <nav aria-label={t('layout.menu')}>
      <Menu
        mode="inline"
        inlineCollapsed={collapsed}
        items={items}
        selectedKeys={selected ? [selected] : []}
        openKeys={openKeys}
        onOpenChange={onOpenChange}
        subMenuOpenDelay={SUBMENU_OPEN_DELAY_S}
        style={{ borderInlineEnd: 0 }}
        data-testid="side-menu"
      />
    </nav>
  );
}

/** The menu link the path is on or below (a detail page keeps its list entry selected). */
function selectedKey(pathname: string, section: MenuItem | undefined): string | null {
  if (!section) return null;
  if (section.children.length === 0) return menuLink(section.path);
  let best: string | null = null;
  for (const child of section.children) {
    const link = menuLink(section.path, child.path);
    if ((pathname === link || pathname.startsWith(link + '/')) && (!best || link.length > best.length)) best = link;
  }
  return best;
}

function toItems(menu: MenuItem[], language: Language, onNavigate?: () => void): Items {
  return menu
    .filter((m) => !m.hidden)
    .map((parent) => {
      const title = pickText(parent.title, language);
      // biome-ignore lint/correctness/useJsxKeyInIterable: a menu item's icon property, not a list child
      const icon = <MenuIcon name={parent.icon} />;
      const children = parent.children.filter((c) => !c.hidden);
      if (children.length === 0) {
        const to = menuLink(parent.path);
        return { key: to, icon, label: <Link to={to} onClick={onNavigate} title={title}>{title}</Link>, title };
      }
      return {
        key: parent.code,
        icon,
        label: title,
        children: children.map((child) => {
          const to = menuLink(parent.path, child.path);
          const label = pickText(child.title, language);
          return { key: to, icon: child.icon ? <MenuIcon name={child.icon} /> : undefined, label: <Link to={to} onClick={onNavigate} title={label}>{label}</Link>, title: label };
        }),
      };
    });
}
