import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Layout, Space } from 'antd';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { ScreenRoute } from '../screen-route.ts';
import { useServices } from '../../services/context.ts';
import { HOME_PATH, LOGIN_PATH, NOTICE_PARAM, PASSWORD_CHANGED } from '../../routing/access.ts';
import { menuCodesAtom, permissionMenuAtom, userInfoAtom } from '../../session/atoms.ts';
import { buildBreadcrumbs } from '../breadcrumbs.ts';
import { pickText } from '../../i18n/languages.ts';
import { useLanguage, useShellApi } from '../hooks.ts';
import { PasswordDialog } from '../password/PasswordDialog.tsx';
import { documentTitle, findRouteMeta, helpParagraphs, routeHelp, routeOpensTab, routeTitle } from '../route-meta.ts';
import { recordTitlesAtom } from '../../screens/screen-title.ts';
import { Sidebar } from '../sidebar/Sidebar.tsx';
import { useDevice } from '../sidebar/useDevice.ts';
import { baseInfoAtom, consoleConfigAtom, passwordDialogOpenAtom } from '../state/atoms.ts';
import { useBaseInfo } from '../state/base-info.ts';
import { useSidebarOpened } from '../state/preferences.ts';
import { KeepAliveOutlet } from '../tabs/KeepAliveOutlet.tsx';
import { TabStrip } from '../tabs/TabStrip.tsx';
import { forgetStoredTabs, tabsAtom, useTabs } from '../tabs/tabs-state.ts';
import { Breadcrumbs } from '../topbar/Breadcrumbs.tsx';
import { ErrorLogButton } from '../topbar/ErrorLogButton.tsx';
import { FullscreenToggle } from '../topbar/FullscreenToggle.tsx';
import { HeaderTitle } from '../topbar/HeaderTitle.tsx';
import { InstructionVideo } from '../topbar/InstructionVideo.tsx';
import { NoticeBadge } from '../topbar/NoticeBadge.tsx';
import { SizeSwitch } from '../topbar/SizeSwitch.tsx';
import { UserDropdown } from '../topbar/UserDropdown.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

const { Header, Content } = Layout;
const HEADER_HEIGHT = 56;

/**
 * The shell of spec 2.6 around every gated page: sidebar with the side menu, top bar
 * (breadcrumbs, header title, error log, instruction video, full screen, notices, size,
 * language, user menu), the tab strip, and the page area that keeps keepAlive views.
 */
export function ConsoleLayout({ screens }: { screens: readonly ScreenRoute[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { session } = useServices();
  const api = useShellApi();
  const location = useLocation();
  const info = useAtomValue(userInfoAtom);
  const menu = useAtomValue(permissionMenuAtom);
  const setBaseInfo = useSetAtom(baseInfoAtom);
  const setConfig = useSetAtom(consoleConfigAtom);
  const setTabs = useSetAtom(tabsAtom);
  const base = useBaseInfo();
  const device = useDevice();
  const mobile = device === 'mobile';
  const [desktopOpened, setDesktopOpened] = useSidebarOpened();
  const [drawerOpened, setDrawerOpened] = useState(false);
  const passwordOpen = useAtomValue(passwordDialogOpenAtom);
  const setPasswordOpen = useSetAtom(passwordDialogOpenAtom);
  const userId = String(info?.id ?? '');
  const { state: tabs, activeKey, dispatch } = useTabs(userId);

  // Entering mobile mode closes the sidebar at once; the desktop status stays as it was.
  useEffect(() => {
    if (mobile) setDrawerOpened(false);
  }, [mobile]);

  useEffect(() => {
    if (!info) return;
    let alive = true;
    api.baseInfo().then(
      (b) => alive && setBaseInfo({ userId: info.id, info: b }),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [api, info?.id, setBaseInfo]);

  useEffect(() => {
    api.consoleConfig().then(setConfig, () => undefined);
  }, [api, setConfig]);

  const menuCodes = useAtomValue(menuCodesAtom);
  const match = useMemo(() => findRouteMeta(location.pathname, screens), [location.pathname, screens]);
  // A page the user may not open (401) or that does not exist (404) gets no tab.
  const opensTab = useMemo(() => routeOpensTab(location.pathname, screens, menuCodes), [location.pathname, screens, menuCodes]);
  const href = location.pathname + location.search;
  useEffect(() => {
    if (opensTab) dispatch({ type: 'visit', key: activeKey, href });
  }, [activeKey, href, opensTab, dispatch]);

  const guide = useMemo(() => {
    if (!match) return undefined;
    const load = match.meta.loadHelp;
    return {
      page: routeTitle(match, t, language),
      paragraphs: routeHelp(match, t, language),
      ...(load ? { load: () => load().then((help) => (help ? helpParagraphs(pickText(help, language)) : [])) } : {}),
    };
  }, [match, t, language]);

  const recordTitles = useAtomValue(recordTitlesAtom);
  const crumbsFor = useCallback(
    (pathname: string, key = pathname) => {
      const m = findRouteMeta(pathname, screens);
      return buildBreadcrumbs({
        pathname,
        menu,
        pageTitle: m ? routeTitle(m, t, language, recordTitles[key]) : null,
        homeTitle: t('shell.pages.dashboard'),
        homePath: HOME_PATH,
        language,
      });
    },
    [screens, menu, t, language, recordTitles],
  );
  const titleOf = useCallback(
    (key: string) => {
      const pathname = key.split('?')[0];
      const m = findRouteMeta(pathname, screens);
      return m ? routeTitle(m, t, language, recordTitles[key]) : (crumbsFor(pathname, key).at(-1)?.title ?? pathname);
    },
    [screens, t, language, crumbsFor, recordTitles],
  );
  // The browser's title follows the active tab.
  const activeTitle = opensTab ? titleOf(activeKey) : null;
  useEffect(() => {
    document.title = documentTitle(activeTitle, t('app.name'));
  }, [activeTitle, t]);

  // Scroll positions per tab: a kept-alive view comes back where the user left it.
  const scroller = useRef<HTMLDivElement>(null);
  const positions = useRef(new Map<string, number>());
  const keepAlive = match?.meta.keepAlive ?? false;
  const generation = tabs.tabs.find((x) => x.key === activeKey)?.generation ?? 0;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = keepAlive ? (positions.current.get(`${activeKey}#${generation}`) ?? 0) : 0;
  }, [activeKey, keepAlive, generation]);

  // Spec 4: the server call first, then everything local goes, and the user is at /.
  // / is loaded afresh, so nothing of this user stays in memory either (kept-alive views,
  // screens' caches, the error log) for whoever uses the browser next.
  const logout = async () => {
    await session.logout();
    forgetStoredTabs();
    setTabs(null);
    setBaseInfo(null);
    window.location.replace('/');
  };

  // A password change ends every token of the user (server/auth/end-sessions.ts), this one
  // too: leave at once, locally, and say so on the login page, rather than meet the
  // "you have been logged out" box on the next request.
  const passwordChanged = () => {
    setPasswordOpen(false);
    session.clearLocal();
    forgetStoredTabs();
    setTabs(null);
    setBaseInfo(null);
    window.location.replace(`${LOGIN_PATH}?${NOTICE_PARAM}=${PASSWORD_CHANGED}`);
  };

  const sidebarOpened = mobile ? drawerOpened : desktopOpened;
  const toggleLabel = sidebarOpened ? t('shell.sidebar.collapse') : t('shell.sidebar.expand');

  return (
    <Layout hasSider={!mobile} style={{ height: '100vh', overflow: 'hidden' }} data-device={device}>
      <Sidebar device={device} opened={sidebarOpened} onClose={() => setDrawerOpened(false)} />
      <Layout style={{ minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Header
          style={{
            background: '#fff',
            height: HEADER_HEIGHT,
            lineHeight: `${HEADER_HEIGHT}px`,
            paddingInline: mobile ? 8 : 16,
            display: 'flex',
            alignItems: 'center',
            gap: 12,
            borderBottom: '1px solid #f0f0f0',
          }}
        >
          <Button
            type="text"
            icon={sidebarOpened ? <MenuFoldOutlined aria-hidden /> : <MenuUnfoldOutlined aria-hidden />}
            aria-label={toggleLabel}
            title={toggleLabel}
            aria-expanded={sidebarOpened}
            onClick={() => (mobile ? setDrawerOpened(!drawerOpened) : setDesktopOpened(!desktopOpened))}
            data-testid="sidebar-toggle"
          />
          <div style={{ flex: 1, minWidth: 0, display: 'flex', alignItems: 'center', gap: 16, overflow: 'hidden' }}>
            <Breadcrumbs crumbs={crumbsFor(location.pathname, activeKey)} />
            {!mobile && <HeaderTitle />}
          </div>
          <Space size={mobile ? 0 : 4} style={{ flex: 'none' }}>
            {!mobile && <ErrorLogButton />}
            <InstructionVideo compact={mobile} guide={guide} />
            <FullscreenToggle />
            <NoticeBadge />
            <SizeSwitch />
            <LanguageSwitch />
            <UserDropdown compact={mobile} onChangePassword={() => setPasswordOpen(true)} onLogout={() => void logout()} />
          </Space>
        </Header>
        {mobile && <HeaderTitleBar />}
        <TabStrip tabs={tabs.tabs} activeKey={activeKey} titleOf={titleOf} dispatch={dispatch} />
        <Content
          ref={scroller}
          onScroll={(e) => positions.current.set(`${activeKey}#${generation}`, e.currentTarget.scrollTop)}
          style={{ flex: 1, overflow: 'auto', padding: mobile ? 12 : 24 }}
          data-testid="page-scroller"
          // A page of tiles or text alone has nothing to focus: without a tab stop of its own a
          // keyboard user could not scroll it (axe: scrollable-region-focusable).
          tabIndex={0}
        >
          {/* antd's Content is the page's <main> landmark. */}
          <KeepAliveOutlet tabs={tabs.tabs} activeKey={activeKey} keepAlive={keepAlive} />
        </Content>
      </Layout>
      <PasswordDialog open={passwordOpen} phone={base?.mobilePhone} onCancel={() => setPasswordOpen(false)} onSaved={passwordChanged} />
    </Layout>
  );
}

/** In mobile mode the header title gets a line of its own under the top bar. */
function HeaderTitleBar() {
  return (
    <div style={{ background: '#fff', padding: '0 12px', display: 'flex' }}>
      <HeaderTitle />
    </div>
  );
}
