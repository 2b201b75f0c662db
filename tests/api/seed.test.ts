import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import type { Database } from '../../server/db/database.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedIfEmpty } from '../../server/seed/seed.ts';
import { MENUS_FILE, readMenusFile, syncMenus } from '../../server/seed/menus.ts';
import { ROLE_SPECS, resolveGrants } from '../../server/seed/roles.ts';
import { verifyPassword, hashPassword, needsRehash } from '../../server/auth/password.ts';
import { elementCodes, menuCodes, validateMenus, type MenuDocument } from '../../runtime/schema/menus.ts';

/** Every authority key of spec section 6. */
const SPEC_AUTHORITY_KEYS = [
  'farmMain', 'yxhome', 'examineFactory', 'registRequestManage', 'farmControllRoom', 'farmInput', 'landManagement',
  'customerAgent', 'commentSuggestion', 'trackInfoManage', 'farmMaterialsManage', 'farmMaterialsList',
  'farmMaterialsSupplier', 'farmMaterialsBuy', 'farmMaterialsSupply', 'groupCustomer', 'multiFarm', 'nurseryManage',
  'showMap', 'shareMaterial', 'productionManagement', 'environment', 'farmHarvest', 'farmDevice', 'farmStorehouse',
  'farmAccounting', 'plantManagement', 'baseManager', 'userManager', 'menuManager', 'groupManager', 'groupTypeManager',
  'gateLogManager', 'fieldManager', 'dictManager', 'authManager', 'monitorManager', 'farm', 'Bigland',
  'sunlightGreenhouse', 'groupHouse', 'sysTemplateManage', 'bigData-kms', 'cropsManager', 'deviceStore', 'tankFactory',
  'tankFertilizer', 'tankPesticide', 'tankSeed', 'tankSeedling', 'tankEquipmentAccessories', 'tankFacilitiesAccessories',
  'tankAgent', 'cropSubtype', 'cropClassify', 'plantRules', 'farmWork', 'materielManager', 'standard', 'equipment',
  'fertilizerFactory', 'promotion', 'articleManage', 'basicInfo', 'farmPeopleMangement', 'constructSmartSystem', 'land',
  'equipmentControll', 'weatherAndSituation', 'weatherSituation', 'shangSituation', 'seedlingSituation',
  'insectSituation', 'disasterSituation', 'introduce', 'marketing', 'qualityandSafety', 'agricultureKnowledge',
  'patternTemplate',
];

/** Section roots of spec 2.4 and the child each redirects to. */
const SPEC_DEFAULT_CHILDREN: Record<string, string> = {
  basicInfo: 'farmPeopleMangement',
  equipmentControll: 'index',
  weatherAndSituation: 'weatherSituation',
  plantManagement: 'farmPlantGroup',
  marketing: 'introduce',
  qualityandSafety: 'farm',
  agricultureKnowledge: 'index',
};

const FARM_OPERATOR_FORBIDDEN = [
  'baseManager', 'authManager', 'monitorManager', 'registRequestManage', 'articleManage',
  'promotion', 'customerAgent', 'groupCustomer', 'multiFarm', 'nurseryManage',
];

describe('schemas/menus.json', () => {
  let doc: MenuDocument;
  beforeAll(async () => {
    doc = await readMenusFile();
  });

  it('is valid against its meta-schema and declares format, revision and $schema', () => {
    const raw = JSON.parse(readFileSync(MENUS_FILE, 'utf8'));
    expect(validateMenus(raw)).toEqual([]);
    expect(raw.formatVersion).toBe(1);
    expect(raw.revision).toBeGreaterThanOrEqual(1);
    expect(existsSync(new URL(raw.$schema, `file://${MENUS_FILE}`))).toBe(true);
  });

  it('covers every authority key of spec 6 exactly once', () => {
    const codes = menuCodes(doc);
    expect(new Set(codes).size).toBe(codes.length);
    for (const key of SPEC_AUTHORITY_KEYS) expect(codes, key).toContain(key);
  });

  it('has the section roots and default children of spec 2.4', () => {
    for (const [code, child] of Object.entries(SPEC_DEFAULT_CHILDREN)) {
      const section = doc.menus.find((s) => s.code === code)!;
      expect(section.defaultChild, code).toBe(child);
      expect(section.children.some((c) => (c.path ?? c.code) === child), code).toBe(true);
    }
    const weather = doc.menus.find((s) => s.code === 'weatherAndSituation')!;
    expect(weather.children.map((c) => c.code)).toEqual(['weatherSituation', 'shangSituation', 'seedlingSituation', 'insectSituation', 'disasterSituation']);
    const farm = doc.menus.find((s) => s.code === 'farm')!;
    expect(farm.children.find((c) => c.code === 'groupHouse')?.path).toBe('groupHouse/groupHouseHome');
  });

  it('names only icons that @ant-design/icons has, and titles in three languages', () => {
    const entries = doc.menus.flatMap((s) => [s, ...s.children]);
    for (const e of entries) {
      expect(existsSync(`node_modules/@ant-design/icons/lib/icons/${e.icon}.js`), `${e.code}: ${e.icon}`).toBe(true);
      expect(e.title.zh).toMatch(/[\u4e00-\u9fff]/);
      expect(e.title.en).not.toBe(e.title.zh);
      expect(e.title.es.length).toBeGreaterThan(0);
    }
  });

  it('gives list screens their elements, and the user manager status and password reset', () => {
    const elements = elementCodes(doc);
    for (const action of ['add', 'edit', 'delete', 'view', 'export', 'status', 'resetPassword']) expect(elements).toContain(`userManager:${action}`);
    for (const action of ['add', 'edit', 'delete', 'view', 'export']) expect(elements).toContain(`cropsManager:${action}`);
  });

  it('reports broken documents with file, JSON pointer and reason', () => {
    const broken = structuredClone(doc) as unknown as { menus: Record<string, unknown>[] } & Record<string, unknown>;
    (broken.menus[0] as { title: unknown }).title = { zh: '首页' };
    (broken.menus[1] as { icon: unknown }).icon = 'not an icon';
    broken.extra = true;
    const problems = validateMenus(broken, 'x.json');
    expect(problems).toContainEqual({ file: 'x.json', pointer: '/menus/0/title', message: 'missing property "en"' });
    expect(problems.some((p) => p.pointer === '/menus/1/icon')).toBe(true);
    expect(problems).toContainEqual({ file: 'x.json', pointer: '/', message: 'unknown property "extra"' });

    const dup = structuredClone(doc);
    dup.menus[1].children[0].code = dup.menus[0].children[0].code;
    dup.menus[2].defaultChild = 'nowhere';
    dup.menus[3].children[0].elements = [{ code: 'somethingElse:add', title: { zh: '新增', en: 'Add', es: 'Añadir' } }];
    const cross = validateMenus(dup, 'x.json');
    expect(cross).toContainEqual({ file: 'x.json', pointer: '/menus/1/children/0/code', message: `code "${doc.menus[0].children[0].code}" is already used at /menus/0/children/0` });
    expect(cross.some((p) => p.pointer === '/menus/2/defaultChild')).toBe(true);
    expect(cross.some((p) => p.pointer === '/menus/3/children/0/elements/0/code' && p.message.includes('must start with'))).toBe(true);
  });

  it('grants roles only codes of the tree, and keeps farm operators out of the administrative keys', () => {
    const all = new Set(menuCodes(doc));
    for (const spec of ROLE_SPECS) {
      const { menus, elements } = resolveGrants(spec, doc);
      for (const m of menus) expect(all.has(m), `${spec.code}: ${m}`).toBe(true);
      for (const e of elements) expect(menus, `${spec.code}: ${e}`).toContain(e.slice(0, e.indexOf(':')));
    }
    const farm = resolveGrants(ROLE_SPECS.find((r) => r.code === 'farmOperator')!, doc);
    for (const key of FARM_OPERATOR_FORBIDDEN) expect(farm.menus).not.toContain(key);
    const admin = resolveGrants(ROLE_SPECS.find((r) => r.platform)!, doc);
    expect(admin.menus.sort()).toEqual(menuCodes(doc).sort());
    expect(admin.elements.sort()).toEqual(elementCodes(doc).sort());
  });
});

describe('password hashes', () => {
  it('are salted scrypt strings carrying their parameters', async () => {
    const a = await hashPassword('demo_2026');
    const b = await hashPassword('demo_2026');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('demo_2026', a)).toBe(true);
    expect(await verifyPassword('demo_2027', a)).toBe(false);
    expect(needsRehash(a)).toBe(false);
    expect(needsRehash(a.replace('$32768$', '$1024$'))).toBe(true);
  });

  it('refuse unreadable or absurd stored hashes instead of throwing', async () => {
    for (const bad of ['', 'plain', 'scrypt$1$1$1$x$y', `scrypt$${2 ** 30}$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA`, 'bcrypt$2$3$4$5$6']) {
      expect(await verifyPassword('x', bad), bad).toBe(false);
    }
  });
});

describe.each(engines())('demo seed on $name', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await engine.open();
    expect(await seedIfEmpty(db)).toBe(true);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('runs once: a second run changes nothing', async () => {
    const count = async () =>
      (await db.query<{ n: string }>(`SELECT (SELECT count(*) FROM users) || '/' || (SELECT count(*) FROM roles) || '/' || (SELECT count(*) FROM menus) || '/' || (SELECT count(*) FROM organisations) AS n`)).rows[0].n;
    const before = await count();
    expect(await seedIfEmpty(db)).toBe(false);
    expect(await count()).toBe(before);
  });

  it('creates every demo account with the demo password and a distinct mainland phone', async () => {
    const { rows } = await db.query<{ username: string; mobile_phone: string; password_hash: string; status: number }>(
      'SELECT username, mobile_phone, password_hash, status FROM users',
    );
    const byName = new Map(rows.map((r) => [r.username, r]));
    const wanted = ['admin', 'farm', 'farm2', 'factory', 'center', 'nursery', 'provider', 'agent', 'tech', 'device', 'config', 'mobile'];
    expect(DEMO_ACCOUNTS.map((a) => a.username)).toEqual(wanted);
    for (const name of wanted) {
      const u = byName.get(name)!;
      expect(u, name).toBeDefined();
      expect(u.mobile_phone).toMatch(/^1[3-8]\d{9}$/);
      expect(u.status).toBe(1);
      expect(u.password_hash).not.toContain(DEMO_PASSWORD);
      expect(await verifyPassword(DEMO_PASSWORD, u.password_hash), name).toBe(true);
    }
    const phones = wanted.map((n) => byName.get(n)!.mobile_phone);
    expect(new Set(phones).size).toBe(phones.length);
  });

  it('places the accounts in organisations of every kind, two farms, and a bloc for the provider', async () => {
    const { rows } = await db.query<{ username: string; org_name: string | null; org_type: number | null; org_bloc: number | null; bloc_id: number | null; city: string | null; logo_url: string | null; roles: number }>(
      `SELECT u.username, o.name AS org_name, o.type AS org_type, o.bloc_id AS org_bloc, u.bloc_id, COALESCE(u.city, o.city) AS city, o.logo_url,
              (SELECT count(*)::int FROM user_roles ur WHERE ur.user_id = u.id) AS roles
         FROM users u LEFT JOIN organisations o ON o.id = u.org_id`,
    );
    const by = Object.fromEntries(rows.map((r) => [r.username, r]));
    expect(by.farm.org_type).toBe(0);
    expect(by.farm2.org_type).toBe(0);
    expect(by.farm.org_name).not.toBe(by.farm2.org_name);
    expect(by.farm.org_bloc).not.toBeNull();
    expect(by.farm2.org_bloc).toBe(by.farm.org_bloc);
    expect(by.farm2.city).toBe('齐齐哈尔市');
    expect(by.factory.org_type).toBe(1);
    expect(by.center.org_type).toBe(3);
    expect(by.nursery.org_type).toBe(4);
    expect(by.provider.org_name).toBeNull();
    expect(by.provider.bloc_id).toBe(by.farm.org_bloc);
    expect(by.farm.logo_url).toBe('/logo.svg');
    expect(by.mobile.roles).toBe(0);
    for (const name of ['admin', 'farm', 'farm2', 'factory', 'center', 'nursery', 'provider', 'agent', 'tech', 'device', 'config']) expect(by[name].roles, name).toBe(1);
  });

  it('writes the menu tree with parents, paths, titles and elements', async () => {
    const doc = await readMenusFile();
    const { rows } = await db.query<{ code: string; parent: string | null; path: string; title: { zh: string }; elements: { code: string }[]; default_child: string | null }>(
      `SELECT m.code, p.code AS parent, m.path, m.title, m.elements, m.default_child FROM menus m LEFT JOIN menus p ON p.id = m.parent_id`,
    );
    expect(rows.map((r) => r.code).sort()).toEqual(menuCodes(doc).sort());
    const by = Object.fromEntries(rows.map((r) => [r.code, r]));
    expect(by.userManager).toMatchObject({ parent: 'baseManager', path: 'userManager' });
    expect(by.farmMainIndex).toMatchObject({ parent: 'farmMain', path: 'index' });
    expect(by.basicInfo).toMatchObject({ parent: null, default_child: 'farmPeopleMangement' });
    expect(by.baseManager.title.zh).toBe('系统管理');
    expect(by.userManager.elements.map((e) => e.code)).toContain('userManager:resetPassword');
  });

  it('synchronises a changed menu file by code without duplicating entries', async () => {
    const doc = await readMenusFile();
    const changed = structuredClone(doc);
    changed.menus[0].title = { zh: '主页', en: 'Start', es: 'Portada' };
    await db.transaction((tx) => syncMenus(tx, changed));
    const { rows } = await db.query<{ n: number; title: { en: string }; version: number }>(
      `SELECT (SELECT count(*)::int FROM menus) AS n, title, version FROM menus WHERE code = $1`,
      [doc.menus[0].code],
    );
    expect(rows[0]).toMatchObject({ n: menuCodes(doc).length, title: { en: 'Start' }, version: 2 });
    await db.transaction((tx) => syncMenus(tx, doc));
    const unchanged = await db.query<{ version: number }>(`SELECT max(version)::int AS version FROM menus WHERE code <> $1`, [doc.menus[0].code]);
    expect(unchanged.rows[0].version).toBe(1);
  });

  it('gives the platform role every code, and the farm operator role none of the administrative keys', async () => {
    const doc = await readMenusFile();
    const { rows } = await db.query<{ code: string; menus: string[]; elements: string[]; platform: boolean }>('SELECT code, menus, elements, platform FROM roles');
    const by = Object.fromEntries(rows.map((r) => [r.code, r]));
    expect(by.platformAdmin.platform).toBe(true);
    expect([...by.platformAdmin.menus].sort()).toEqual(menuCodes(doc).sort());
    expect([...by.platformAdmin.elements].sort()).toEqual(elementCodes(doc).sort());
    for (const key of FARM_OPERATOR_FORBIDDEN) expect(by.farmOperator.menus).not.toContain(key);
    expect(rows.filter((r) => r.platform).map((r) => r.code)).toEqual(['platformAdmin']);
  });
});
