import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appendEntry, errorLogAtom, installGlobalErrorCapture, recordError, toErrorLogEntry } from '../../runtime/errors/error-log.ts';
import { buildBreadcrumbs } from '../../runtime/shell/breadcrumbs.ts';
import { findRouteMeta, routeOpensTab, routeTitle } from '../../runtime/shell/route-meta.ts';
import { deviceForWidth } from '../../runtime/shell/sidebar/device.ts';
import { EMPTY_TABS, HOME_TAB, reduceTabs, restoreTabs, serialiseTabs, tabHref, tabKey, viewKey, withHome, type TabsState } from '../../runtime/shell/tabs/tab-list.ts';
import { badgeText } from '../../runtime/shell/topbar/badge-text.ts';
import { showsHeaderTitle } from '../../runtime/shell/topbar/header-title.ts';
import type { MenuItem } from '../../runtime/session/user-info.ts';

const tabs = (...keys: string[]): TabsState => ({ tabs: keys.map((key) => ({ key, generation: 0 })) });
const keys = (s: TabsState) => s.tabs.map((t) => t.key);

describe('tab list', () => {
  const H = HOME_TAB;
  it('visiting adds a tab once, after the pinned home tab, keyed by pathname and search less the list state', () => {
    let s = reduceTabs(EMPTY_TABS, { type: 'visit', key: '/a' }, '/a').state;
    s = reduceTabs(s, { type: 'visit', key: '/b/detail/1' }, '/b/detail/1').state;
    s = reduceTabs(s, { type: 'visit', key: '/b/detail/2' }, '/b/detail/2').state;
    const again = reduceTabs(s, { type: 'visit', key: '/a' }, '/a');
    expect(again.state).toBe(s);
    expect(keys(s)).toEqual([H, '/a', '/b/detail/1', '/b/detail/2']);
    expect(keys(reduceTabs(s, { type: 'visit', key: H }, H).state)).toEqual(keys(s));
    expect(tabKey({ pathname: '/x', search: '?id=3' })).toBe('/x?id=3');
    expect(tabKey({ pathname: '/x', search: '' })).toBe('/x');
    expect(tabKey({ pathname: '/x', search: '?list.page=2&filter.name=a' })).toBe('/x');
    expect(tabKey({ pathname: '/x', search: '?id=3&list.sort=-name' })).toBe('/x?id=3');
    // A wizard's step is its view's state: the wizard stays one tab as it moves (and when
    // opened from the address bar, where it adds ?step=0 to its own address).
    expect(tabKey({ pathname: '/farm/initialization', search: '?step=0' })).toBe('/farm/initialization');
    expect(tabKey({ pathname: '/x', search: '?id=3&step=2' })).toBe('/x?id=3');
  });

  it('a visit with list state keeps one tab and remembers where it was left', () => {
    let s = reduceTabs(EMPTY_TABS, { type: 'visit', key: '/a', href: '/a?list.page=2' }, '/a').state;
    s = reduceTabs(s, { type: 'visit', key: '/a', href: '/a?list.page=3' }, '/a').state;
    expect(keys(s)).toEqual([H, '/a']);
    expect(tabHref(s.tabs[1])).toBe('/a?list.page=3');
    expect(reduceTabs(s, { type: 'close', key: '/zz' }, '/a').state).toBe(s);
    // Leaving the tab and coming back through Close Others lands on its last address.
    expect(reduceTabs(tabs('/a', '/b'), { type: 'closeOthers', key: '/a' }, '/b').navigateTo).toBe('/a');
    expect(reduceTabs(s, { type: 'closeAll' }, '/a').navigateTo).toBe(H);
    const withB = reduceTabs(s, { type: 'visit', key: '/b' }, '/b').state;
    expect(reduceTabs(withB, { type: 'close', key: '/b' }, '/b').navigateTo).toBe('/a?list.page=3');
  });

  it('closing the active tab goes to the last remaining tab, or home when none remain', () => {
    const closeB = reduceTabs(tabs('/a', '/b', '/c'), { type: 'close', key: '/b' }, '/b');
    expect(keys(closeB.state)).toEqual([H, '/a', '/c']);
    expect(closeB.navigateTo).toBe('/c');
    const closeLast = reduceTabs(tabs('/a'), { type: 'close', key: '/a' }, '/a');
    expect(keys(closeLast.state)).toEqual([H]);
    expect(closeLast.navigateTo).toBe(H);
  });

  it('the home tab is pinned: it cannot be closed and stays first', () => {
    const s = withHome(tabs('/a', H, '/b'));
    expect(keys(s)).toEqual([H, '/a', '/b']);
    const out = reduceTabs(s, { type: 'close', key: H }, H);
    expect(out.state).toBe(s);
    expect(out.navigateTo).toBeNull();
  });

  it('closing another tab stays where the user is', () => {
    const out = reduceTabs(tabs('/a', '/b', '/c'), { type: 'close', key: '/a' }, '/c');
    expect(keys(out.state)).toEqual([H, '/b', '/c']);
    expect(out.navigateTo).toBeNull();
    expect(reduceTabs(tabs('/a'), { type: 'close', key: '/zz' }, '/a').navigateTo).toBeNull();
  });

  it('close others keeps the home tab and one tab and opens it; close all keeps and opens home', () => {
    const others = reduceTabs(tabs('/a', '/b', '/c'), { type: 'closeOthers', key: '/b' }, '/c');
    expect(keys(others.state)).toEqual([H, '/b']);
    expect(others.navigateTo).toBe('/b');
    expect(reduceTabs(tabs('/a', '/b'), { type: 'closeOthers', key: '/a' }, '/a').navigateTo).toBeNull();
    const homeOnly = reduceTabs(tabs('/a', '/b'), { type: 'closeOthers', key: H }, '/a');
    expect(keys(homeOnly.state)).toEqual([H]);
    expect(homeOnly.navigateTo).toBe(H);
    // From the home tab, Close Others on another tab opens that tab.
    const othersFromHome = reduceTabs(tabs('/a', '/b'), { type: 'closeOthers', key: '/b' }, H);
    expect(keys(othersFromHome.state)).toEqual([H, '/b']);
    expect(othersFromHome.navigateTo).toBe('/b');
    const all = reduceTabs(tabs('/a', '/b'), { type: 'closeAll' }, '/a');
    expect(keys(all.state)).toEqual([H]);
    expect(all.navigateTo).toBe(H);
    const fromHome = reduceTabs(tabs('/a', '/b'), { type: 'closeAll' }, H);
    expect(fromHome.navigateTo).toBeNull();
  });

  it('close left and close right keep the home tab, the tab and the other side', () => {
    const left = reduceTabs(tabs('/a', '/b', '/c', '/d'), { type: 'closeLeft', key: '/c' }, '/d');
    expect(keys(left.state)).toEqual([H, '/c', '/d']);
    expect(left.navigateTo).toBeNull();
    const leftActive = reduceTabs(tabs('/a', '/b', '/c'), { type: 'closeLeft', key: '/c' }, '/a');
    expect(leftActive.navigateTo).toBe('/c');
    const right = reduceTabs(tabs('/a', '/b', '/c', '/d'), { type: 'closeRight', key: '/b' }, '/d');
    expect(keys(right.state)).toEqual([H, '/a', '/b']);
    expect(right.navigateTo).toBe('/b');
    const rightOfHome = reduceTabs(tabs('/a', '/b'), { type: 'closeRight', key: H }, H);
    expect(keys(rightOfHome.state)).toEqual([H]);
    expect(rightOfHome.navigateTo).toBeNull();
    const nothing = reduceTabs(withHome(tabs('/a')), { type: 'closeLeft', key: '/a' }, '/a');
    expect(nothing.navigateTo).toBeNull();
    expect(keys(nothing.state)).toEqual([H, '/a']);
    expect(reduceTabs(tabs('/a'), { type: 'closeRight', key: '/zz' }, '/a').navigateTo).toBeNull();
  });

  it('refresh gives the tab a new generation, hence a new view', () => {
    const out = reduceTabs(tabs('/a', '/b'), { type: 'refresh', key: '/a' }, '/a');
    expect(out.state.tabs[1]).toEqual({ key: '/a', generation: 1 });
    expect(viewKey(out.state.tabs[1])).not.toBe(viewKey(tabs('/a').tabs[0]));
    expect(out.navigateTo).toBeNull();
    expect(reduceTabs(tabs('/a', '/b'), { type: 'refresh', key: '/b' }, '/a').navigateTo).toBe('/b');
  });

  it('survives a reload for the same user only, with the list state of each tab, and refuses junk', () => {
    const stored = reduceTabs(tabs('/a', '/b?x=1'), { type: 'visit', key: '/a', href: '/a?list.page=4' }, '/a').state;
    const raw = serialiseTabs('7', stored);
    expect(keys(restoreTabs(raw, '7'))).toEqual([H, '/a', '/b?x=1']);
    expect(restoreTabs(raw, '7').tabs.map(tabHref)).toEqual([H, '/a?list.page=4', '/b?x=1']);
    expect(restoreTabs(raw, '8').tabs).toEqual([]);
    expect(restoreTabs('{not json', '7').tabs).toEqual([]);
    expect(restoreTabs(null, '7').tabs).toEqual([]);
    expect(keys(restoreTabs(JSON.stringify({ userId: '7', keys: ['/a', '/a', '//evil.example', 'http://x', 3] }), '7'))).toEqual(['/a']);
    // An address that leads elsewhere than its tab is dropped.
    expect(restoreTabs(JSON.stringify({ userId: '7', keys: ['/a'], hrefs: { '/a': '/b?list.page=2' } }), '7').tabs.map(tabHref)).toEqual(['/a']);
  });

  it('only pages the user may open get a tab', () => {
    const screens = [
      { path: 'crops/list', authority: 'crops', meta: { id: 'crops', title: { zh: '作物', en: 'Crops', es: 'Cultivos' }, keepAlive: false, hidden: false } },
      { path: 'open/list', meta: { id: 'open', title: { zh: '开', en: 'Open', es: 'Abierto' }, keepAlive: false, hidden: false } },
    ];
    expect(routeOpensTab('/crops/list', screens, new Set(['crops']))).toBe(true);
    expect(routeOpensTab('/crops/list', screens, new Set())).toBe(false);
    expect(routeOpensTab('/open/list', screens, new Set())).toBe(true);
    expect(routeOpensTab('/dashboard', screens, new Set())).toBe(true);
    expect(routeOpensTab('/no/such/page', screens, new Set(['crops']))).toBe(false);
  });
});

const t = (s: string) => `«${s}»`;
const menu: MenuItem[] = [
  {
    id: 1,
    code: 'agricultureKnowledge',
    path: 'agricultureKnowledge',
    title: { zh: '农业知识库', en: 'Agricultural knowledge', es: 'Conocimiento agrícola' },
    sort: 90,
    hidden: false,
    children: [
      { id: 2, code: 'notice', path: 'notice', title: { zh: '通知', en: 'Notices', es: 'Avisos' }, sort: 0, hidden: false, children: [] },
      { id: 3, code: 'agricultureKnowledgeCropsManager', path: 'cropsManager', title: { zh: '作物管理', en: 'Crops', es: 'Cultivos' }, sort: 0, hidden: false, children: [] },
    ],
  },
  {
    id: 4,
    code: 'farm',
    path: 'farm',
    title: { zh: '农场', en: 'Farm', es: 'Granja' },
    sort: 1,
    hidden: false,
    children: [
      { id: 5, code: 'groupHouse', path: 'groupHouse', title: { zh: '连栋温室', en: 'Greenhouses', es: 'Invernaderos' }, sort: 0, hidden: false, children: [] },
      { id: 6, code: 'groupHouseHome', path: 'groupHouse/groupHouseHome', title: { zh: '温室首页', en: 'Greenhouse home', es: 'Inicio' }, sort: 0, hidden: false, children: [] },
    ],
  },
];
const crumbs = (pathname: string, pageTitle: string | null = null, language: 'zh' | 'en' | 'es' = 'en') =>
  buildBreadcrumbs({ pathname, menu, pageTitle, homeTitle: 'Home', homePath: '/dashboard', language });

describe('breadcrumbs', () => {
  it('home alone on the dashboard', () => {
    expect(crumbs('/dashboard')).toEqual([{ title: 'Home', path: null }]);
  });

  it('home, section and menu entry; the last is not a link', () => {
    expect(crumbs('/agricultureKnowledge/cropsManager', 'Crops')).toEqual([
      { title: 'Home', path: '/dashboard' },
      { title: 'Agricultural knowledge', path: null },
      { title: 'Crops', path: null },
    ]);
    expect(crumbs('/agricultureKnowledge/notice', null, 'zh').map((c) => c.title)).toEqual(['Home', '农业知识库', '通知']);
  });

  it('a detail page below an entry adds its own title and links the entry', () => {
    expect(crumbs('/agricultureKnowledge/cropsManager/detail/12', 'Crop detail · 12')).toEqual([
      { title: 'Home', path: '/dashboard' },
      { title: 'Agricultural knowledge', path: null },
      { title: 'Crops', path: '/agricultureKnowledge/cropsManager' },
      { title: 'Crop detail · 12', path: null },
    ]);
  });

  it('the longest entry path wins, on whole segments', () => {
    expect(crumbs('/farm/groupHouse/groupHouseHome').map((c) => c.title)).toEqual(['Home', 'Farm', 'Greenhouse home']);
    expect(crumbs('/farm/groupHouseX').map((c) => c.title)).toEqual(['Home', 'Farm']);
  });

  it('a page outside the menu shows its title after home', () => {
    expect(crumbs('/errorLog', 'Error log')).toEqual([
      { title: 'Home', path: '/dashboard' },
      { title: 'Error log', path: null },
    ]);
  });
});

describe('route meta and titles', () => {
  const title = { zh: '作物详情', en: 'Crop detail', es: 'Detalle del cultivo' };
  const screens = [
    { path: 'agricultureKnowledge/cropsManager', authority: 'x', meta: { id: 'cropsManager', title: { zh: '作物', en: 'Crops', es: 'Cultivos' }, keepAlive: true, hidden: false } },
    { path: '/agricultureKnowledge/cropDetail/:id', authority: 'x', meta: { id: 'cropDetail', title, keepAlive: false, hidden: true } },
  ];

  it('built-in pages by locale key, screens by their document, the record’s name (never the route parameters) after the title', () => {
    const dash = findRouteMeta('/dashboard', screens)!;
    expect(routeTitle(dash, t, 'en')).toBe('«shell.pages.dashboard»');
    const list = findRouteMeta('/agricultureKnowledge/cropsManager', screens)!;
    expect(list.meta.keepAlive).toBe(true);
    expect(routeTitle(list, t, 'es')).toBe('Cultivos');
    const detail = findRouteMeta('/agricultureKnowledge/cropDetail/12', screens)!;
    expect(routeTitle(detail, t, 'zh')).toBe('作物详情');
    expect(findRouteMeta('/nowhere', screens)).toBeNull();
  });
});

describe('badge, device, header title', () => {
  it('badge: none at 0, the count up to 10, "10+" above', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-1)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(10)).toBe('10');
    expect(badgeText(11)).toBe('10+');
    expect(badgeText(250)).toBe('10+');
  });

  it('mobile under 1024 px', () => {
    expect(deviceForWidth(1023)).toBe('mobile');
    expect(deviceForWidth(800)).toBe('mobile');
    expect(deviceForWidth(1024)).toBe('desktop');
    expect(deviceForWidth(1280)).toBe('desktop');
  });

  it('header title only for the configured city', () => {
    expect(showsHeaderTitle('齐齐哈尔市', '齐齐哈尔市')).toBe(true);
    expect(showsHeaderTitle('哈尔滨市', '齐齐哈尔市')).toBe(false);
    expect(showsHeaderTitle(null, '齐齐哈尔市')).toBe(false);
    expect(showsHeaderTitle('齐齐哈尔市', '')).toBe(false);
  });
});

describe('error log', () => {
  afterEach(() => vi.restoreAllMocks());

  it('entries from errors, strings and odd rejection reasons', () => {
    const e = toErrorLogEntry(new TypeError('x is undefined'), 'at Foo', 'http://h/p');
    expect(e).toMatchObject({ message: 'TypeError: x is undefined', info: 'at Foo', url: 'http://h/p' });
    expect(e.stack).toContain('x is undefined');
    expect(toErrorLogEntry('plain', '', '').message).toBe('plain');
    expect(toErrorLogEntry({ message: 'from object' }, '', '').message).toBe('from object');
    expect(toErrorLogEntry({ code: 3 }, '', '').message).toBe('{"code":3}');
  });

  it('keeps the newest entries up to the limit', () => {
    let list: ReturnType<typeof appendEntry> = [];
    for (let i = 0; i < 5; i++) list = appendEntry(list, toErrorLogEntry(`e${i}`, '', ''), 3);
    expect(list.map((x) => x.message)).toEqual(['e2', 'e3', 'e4']);
  });

  it('captures window errors and unhandled rejections into the store', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createStore();
    const target = new EventTarget() as unknown as Window;
    const uninstall = installGlobalErrorCapture(store, target);
    const error = new Error('boom');
    const errorEvent = Object.assign(new Event('error'), { error, message: 'boom', filename: 'app.js', lineno: 3, colno: 7 });
    target.dispatchEvent(errorEvent);
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('rejected') }));
    // A failed image load: no error, no message; not a UI error.
    target.dispatchEvent(Object.assign(new Event('error'), { error: null, message: '' }));
    const log = store.get(errorLogAtom);
    expect(log.map((x) => [x.message, x.info])).toEqual([
      ['boom', 'window.onerror app.js:3:7'],
      ['rejected', 'unhandledrejection'],
    ]);
    uninstall();
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'later' }));
    expect(store.get(errorLogAtom)).toHaveLength(2);
    recordError(store, new Error('by hand'), 'in Foo', 'http://h/');
    expect(store.get(errorLogAtom).at(-1)).toMatchObject({ message: 'by hand', info: 'in Foo', url: 'http://h/' });
  });
});
