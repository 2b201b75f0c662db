import { Menu, type MenuProps } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { isLanguage, pickText, DEFAULT_LANGUAGE, type Language } from '../../i18n/languages.ts';
import { menuLink } from '../../routing/route-table.ts';
import { permissionMenuAtom } from '../../session/atoms.ts';
import type { MenuItem } from '../../session/user-info.ts';

type Items = NonNullable<MenuProps['items']>;

/**
 * Two levels from the server's menu tree, filtered and sorted as spec section 6 says
 * (permissionMenuAtom); hidden entries are routable but not listed. Links are
 * /{parent path}/{child path}.
 */
export function SideMenu() {
  const { t, i18n } = useTranslation();
  const menu = useAtomValue(permissionMenuAtom);
  const { pathname } = useLocation();
  const language: Language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const items = useMemo(() => toItems(menu, language), [menu, language]);
  const open = menu.filter((m) => pathname.startsWith(menuLink(m.path) + '/')).map((m) => m.code);

  return (
    <nav aria-label={t('layout.menu')}>
      <Menu mode="inline" items={items} selectedKeys={[pathname]} defaultOpenKeys={open} style={{ borderInlineEnd: 0 }} />
    </nav>
  );
}

function toItems(menu: MenuItem[], language: Language): Items {
  return menu
    .filter((m) => !m.hidden)
    .map((parent) => {
      const title = pickText(parent.title, language);
      const children = parent.children.filter((c) => !c.hidden);
      if (children.length === 0) {
        const to = menuLink(parent.path);
        return { key: to, label: <Link to={to}>{title}</Link> };
      }
      return {
        key: parent.code,
        label: title,
        children: children.map((child) => {
          const to = menuLink(parent.path, child.path);
          return { key: to, label: <Link to={to}>{pickText(child.title, language)}</Link> };
        }),
      };
    });
}
