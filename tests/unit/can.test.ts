import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { can, type Grants } from '../../runtime/access/can.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';

const cropSubtype = JSON.parse(readFileSync(new URL('../../schemas/resources/cropSubtype.json', import.meta.url), 'utf8')) as ResourceDocument;

const user = (menus: string[], elements: string[] = []): Grants => ({ menus: new Set(menus), elements: new Set(elements) });

describe('can: menu codes', () => {
  it('grants a menu code the user holds and nothing else', () => {
    expect(can(user(['userManager']), 'userManager')).toBe(true);
    expect(can(user(['userManager']), 'roleManager')).toBe(false);
    expect(can({}, 'userManager')).toBe(false);
  });

  it('with an action needs the element code under that same menu code', () => {
    expect(can(user(['versionControl'], ['versionControl:edit']), 'versionControl', 'edit')).toBe(true);
    expect(can(user(['versionControl'], ['versionControl:add']), 'versionControl', 'edit')).toBe(false);
    expect(can(user([], ['versionControl:edit']), 'versionControl', 'edit')).toBe(false);
  });
});

describe('can: an authority of the legacy API', () => {
  const farmWrite = { menus: ['multiFarm', 'userManager'], elements: ['multiFarmIndex:add', 'userManager:add'] };

  it('needs one of the menus and one of the elements', () => {
    expect(can(user(['multiFarm'], ['multiFarmIndex:add']), farmWrite)).toBe(true);
    // Either screen's codes do, even mixed: the spec's rule is any menu and any element.
    expect(can(user(['userManager'], ['multiFarmIndex:add']), farmWrite)).toBe(true);
    expect(can(user(['multiFarm']), farmWrite)).toBe(false);
    expect(can(user([], ['userManager:add']), farmWrite)).toBe(false);
  });

  it('checks only the lists it names; an empty list or none at all grants nothing', () => {
    expect(can(user(['customerAgent']), { menus: ['customerAgent'] })).toBe(true);
    expect(can(user([], ['articleManageIndex:publish']), { elements: ['articleManageIndex:publish'] })).toBe(true);
    expect(can(user(['a'], ['a:add']), { menus: [] })).toBe(false);
    expect(can(user(['a'], ['a:add']), {})).toBe(false);
  });
});

describe('can: a resource of the engine', () => {
  it('reads with the authority, an alias or a read-only grant', () => {
    expect(can(user(['cropSubtype']), cropSubtype, 'read')).toBe(true);
    expect(can(user(['agricultureKnowledgeCropSubtype']), cropSubtype, 'read')).toBe(true);
    expect(can(user(['cropsManager']), cropSubtype, 'read')).toBe(true);
    expect(can(user(['userManager']), cropSubtype, 'read')).toBe(false);
  });

  it('writes with a menu code and the element code of the write under it, never with a read-only grant', () => {
    expect(can(user(['cropSubtype'], ['cropSubtype:add']), cropSubtype, 'create')).toBe(true);
    expect(can(user(['agricultureKnowledgeCropSubtype'], ['agricultureKnowledgeCropSubtype:edit']), cropSubtype, 'update')).toBe(true);
    // The element of the alias does not pair with the authority's menu code.
    expect(can(user(['cropSubtype'], ['agricultureKnowledgeCropSubtype:delete']), cropSubtype, 'delete')).toBe(false);
    expect(can(user(['cropSubtype'], ['cropSubtype:edit']), cropSubtype, 'delete')).toBe(false);
    expect(can(user(['cropsManager'], ['cropsManager:add']), cropSubtype, 'create')).toBe(false);
  });
});
