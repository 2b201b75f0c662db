import { describe, expect, it } from 'vitest';
import { afterLoginTarget, decideAccess, isPublicPath, loginUrl } from '../../runtime/routing/access.ts';
import { productProfile } from '../../product/profile.ts';
import { buildRouteTable, menuLink } from '../../runtime/routing/route-table.ts';

describe('access rules of spec 2.1', () => {
  it.each(['/login', '/startpage', '/startPage', '/auth-redirect', '/adminManagement', '/login/'])('%s is public', (path) => {
    expect(isPublicPath(path, productProfile)).toBe(true);
    expect(decideAccess({ pathname: path, hasToken: false, product: productProfile })).toEqual({ kind: 'allow' });
  });

  it.each(['/articleDetailBeforeLogin/12', '/x/searchArticleBeforeLogin/玉米', '/news/articleDetailBeforeLogin'])(
    '%s contains a public fragment',
    (path) => expect(decideAccess({ pathname: path, hasToken: false, product: productProfile })).toEqual({ kind: 'allow' }),
  );

  it.each(['/dashboard', '/404', '/401', '/baseManager/userManager', '/articleDetail/1', '/loginx'])('%s without a token goes to /login with redirect', (path) => {
    expect(decideAccess({ pathname: path, hasToken: false, product: productProfile })).toEqual({ kind: 'redirect', to: `/login?redirect=${encodeURIComponent(path)}` });
  });

  it('keeps the query of the original path in the redirect parameter', () => {
    const d = decideAccess({ pathname: '/farmMaterialsManage/purchase/detail/edit/9', search: '?tab=2&x=a b', hasToken: false, product: productProfile });
    expect(d).toEqual({ kind: 'redirect', to: '/login?redirect=%2FfarmMaterialsManage%2Fpurchase%2Fdetail%2Fedit%2F9%3Ftab%3D2%26x%3Da%20b' });
    expect(afterLoginTarget(new URL(`http://h${(d as { to: string }).to}`).search)).toBe('/farmMaterialsManage/purchase/detail/edit/9?tab=2&x=a b');
  });

  it('with a token, /login goes to its redirect target (else /dashboard) and gated paths are allowed', () => {
    expect(decideAccess({ pathname: '/login', hasToken: true, product: productProfile })).toEqual({ kind: 'redirect', to: '/dashboard' });
    // The login page navigates to the same place: the two must agree (issue 10, item 5).
    expect(decideAccess({ pathname: '/LOGIN/', search: '?redirect=/x', hasToken: true, product: productProfile })).toEqual({ kind: 'redirect', to: '/x' });
    expect(decideAccess({ pathname: '/login', search: '?redirect=%2F%2Fevil.example', hasToken: true, product: productProfile })).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(decideAccess({ pathname: '/login', search: '?redirect=%2F%09%2Fevil.example', hasToken: true, product: productProfile })).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(decideAccess({ pathname: '/baseManager/userManager', hasToken: true, product: productProfile })).toEqual({ kind: 'allow' });
    expect(decideAccess({ pathname: '/startPage', hasToken: true, product: productProfile })).toEqual({ kind: 'allow' });
  });

  it('the empty path goes to /startPage, with or without a token', () => {
    for (const hasToken of [true, false]) {
      expect(decideAccess({ pathname: '/', hasToken, product: productProfile })).toEqual({ kind: 'redirect', to: '/startPage' });
      expect(decideAccess({ pathname: '', hasToken, product: productProfile })).toEqual({ kind: 'redirect', to: '/startPage' });
    }
  });

  it('loginUrl leaves out pointless redirects', () => {
    expect(loginUrl('/')).toBe('/login');
    expect(loginUrl('/login?redirect=%2Fa')).toBe('/login');
    expect(loginUrl()).toBe('/login');
  });

  it('after login: the redirect parameter when it is a path here, else /dashboard', () => {
    expect(afterLoginTarget('?redirect=%2FbaseManager%2FuserManager')).toBe('/baseManager/userManager');
    expect(afterLoginTarget('')).toBe('/dashboard');
    expect(afterLoginTarget('?redirect=')).toBe('/dashboard');
    expect(afterLoginTarget('?redirect=https%3A%2F%2Fevil.example')).toBe('/dashboard');
    expect(afterLoginTarget('?redirect=%2F%2Fevil.example')).toBe('/dashboard');
    expect(afterLoginTarget('?redirect=%2F%5Cevil.example')).toBe('/dashboard');
    expect(afterLoginTarget('?redirect=javascript%3Aalert(1)')).toBe('/dashboard');
    expect(afterLoginTarget('?redirect=%2Flogin%3Fredirect%3D%2Fx')).toBe('/dashboard');
  });
});

describe('route table from menu codes', () => {
  const routes = [
    { path: 'baseManager/userManager', authority: 'userManager' },
    { path: 'agricultureKnowledge/cropsManager', authority: 'cropsManager' },
    { path: 'bigData-kms/AllSeasonFarming/:id/:createrId', authority: '' },
    { path: 'farmMain/index' },
    // `*` (a screen document's SIGNED_IN): any signed-in user, e.g. the regional big screen.
    { path: 'qiqihaer', authority: '*' },
  ];

  it('permits routes whose authority the user holds, and those without authority', () => {
    const table = buildRouteTable(routes, new Set(['userManager']));
    expect(table.permitted.map((r) => r.path)).toEqual(['baseManager/userManager', 'bigData-kms/AllSeasonFarming/:id/:createrId', 'farmMain/index', 'qiqihaer']);
    expect(buildRouteTable(routes, new Set()).permitted.map((r) => r.path)).toContain('qiqihaer');
    expect(table.forbidden.map((r) => r.path)).toEqual(['agricultureKnowledge/cropsManager']);
  });

  it('builds menu links as /{parent}/{child}', () => {
    expect(menuLink('baseManager', 'userManager')).toBe('/baseManager/userManager');
    expect(menuLink('/basicInfo/', '/land')).toBe('/basicInfo/land');
    expect(menuLink('farmInput')).toBe('/farmInput');
  });
});
