import { describe, expect, it } from 'vitest';
import { excludedByHaveFarm, filterMenuTree, type MenuNode } from '../../runtime/routing/menu-filter.ts';
import { productProfile } from '../../product/profile.ts';

const CODES_HIDDEN_WITHOUT_FARM = new Set(productProfile.menuCodesHiddenWithoutFarm);

const tree: MenuNode[] = [
  { code: 'farmMain', sort: 10, children: [{ code: 'farmMainIndex', sort: 1 }] },
  {
    code: 'baseManager',
    sort: 50,
    children: [
      { code: 'userManager', sort: 1 },
      { code: 'menuManager', sort: 3 },
      { code: 'gateLogManager', sort: 2 },
      { code: 'secretDetail', sort: 9, hidden: true },
    ],
  },
  { code: 'landManagement', sort: 30, children: [{ code: 'landBuild', sort: 1 }] },
  { code: 'plantManagement', sort: 20, children: [] },
  { code: 'redirect', sort: 99, hidden: true },
  { code: 'marketing', sort: 40 },
];

const codes = (nodes: MenuNode[]): unknown => nodes.map((n) => (n.children ? [n.code, codes(n.children as MenuNode[])] : n.code));

describe('menu filtering and sorting of spec section 6', () => {
  it('keeps entries whose code the user holds and hidden ones, children alike, by descending sort', () => {
    const held = new Set(['farmMain', 'farmMainIndex', 'baseManager', 'userManager', 'gateLogManager', 'landManagement', 'landBuild', 'plantManagement']);
    expect(codes(filterMenuTree(tree, held))).toEqual([
      'redirect',
      ['baseManager', ['secretDetail', 'gateLogManager', 'userManager']],
      ['landManagement', ['landBuild']],
      ['plantManagement', []],
      ['farmMain', ['farmMainIndex']],
    ]);
  });

  it('drops a parent the user does not hold even when they hold a child', () => {
    expect(codes(filterMenuTree(tree, new Set(['userManager'])))).toEqual(['redirect']);
  });

  it('a user without menu codes keeps only hidden entries', () => {
    expect(codes(filterMenuTree(tree, new Set()))).toEqual(['redirect']);
  });

  it('keeps the server order for equal sort values and treats a missing sort as 0', () => {
    const flat: MenuNode[] = [{ code: 'a', sort: 1 }, { code: 'b' }, { code: 'c', sort: 1 }, { code: 'd', sort: -1 }];
    expect(codes(filterMenuTree(flat, new Set(['a', 'b', 'c', 'd'])))).toEqual(['a', 'c', 'b', 'd']);
  });

  it('does not modify its input', () => {
    const copy = structuredClone(tree);
    filterMenuTree(tree, new Set(['baseManager', 'userManager']));
    expect(tree).toEqual(copy);
  });

  it("with haveFarm '0' hides land management and planting management", () => {
    const all = new Set(['landManagement', 'landBuild', 'plantManagement', 'marketing']);
    expect(codes(filterMenuTree(tree, all, { exclude: excludedByHaveFarm('0', CODES_HIDDEN_WITHOUT_FARM) }))).toEqual(['redirect', 'marketing']);
    expect(codes(filterMenuTree(tree, all, { exclude: excludedByHaveFarm('1', CODES_HIDDEN_WITHOUT_FARM) }))).toEqual([
      'redirect',
      'marketing',
      ['landManagement', ['landBuild']],
      ['plantManagement', []],
    ]);
    expect(excludedByHaveFarm(undefined, CODES_HIDDEN_WITHOUT_FARM).size).toBe(0);
    expect([...CODES_HIDDEN_WITHOUT_FARM]).toEqual(['landManagement', 'plantManagement']);
  });
});
