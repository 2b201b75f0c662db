import type { Database, Queryable } from '../db/database.ts';
import { hashPassword } from '../auth/password.ts';
import { readMenusFile, syncMenus } from './menus.ts';
import { ROLE_SPECS, resolveGrants } from './roles.ts';
import { seedAccountsExtras } from '../legacy/seed.ts';
import { seedAdminExtras } from '../admin/seed.ts';
import type { MenuDocument } from '../../runtime/schema/menus.ts';
import { seedResources } from '../resources/seed.ts';
import { seedKnowledge } from '../knowledge/seed.ts';
import { seedPlanting } from '../planting/seed.ts';
import { seedMaterials } from '../materials/seed.ts';
import { seedMaterialLibraries } from '../knowledge/library-seed.ts';
import { seedNurseryLand } from '../land/nursery-seed.ts';
import { seedLand } from '../land/seed.ts';
import { seedHarvest } from '../harvest/seed.ts';
import { seedDevices } from '../devices/seed.ts';
import { seedDevicePositions } from '../land/device-positions.ts';
import { seedFiles } from '../files/seed.ts';

export const DEMO_PASSWORD = 'demo_2026';

/** Static path of the organisation logo (the menu logo, attr2 of base info); the console serves it. */
export const DEMO_LOGO_URL = '/logo.svg';

type OrgKey = 'farm1' | 'farm2' | 'factory' | 'center' | 'nursery';

const BLOC = { name: '黑土地农业服务集团', city: '哈尔滨市' };

const ORGS: Record<OrgKey, { name: string; type: 0 | 1 | 3 | 4; inBloc: boolean; city: string; address: string; contact: string; phone: string }> = {
  farm1: { name: '禾丰生态农场', type: 0, inBloc: true, city: '哈尔滨市', address: '黑龙江省哈尔滨市双城区农丰镇', contact: '张伟', phone: '13845010001' },
  farm2: { name: '嫩江源合作农场', type: 0, inBloc: true, city: '齐齐哈尔市', address: '黑龙江省齐齐哈尔市富裕县嫩江路 8 号', contact: '李娜', phone: '13945020002' },
  factory: { name: '丰沃肥业有限公司', type: 1, inBloc: false, city: '济南市', address: '山东省济南市章丘区工业园 12 号', contact: '王强', phone: '15306410003' },
  center: { name: '松嫩平原区域管理中心', type: 3, inBloc: false, city: '大庆市', address: '黑龙江省大庆市萨尔图区世纪大道 66 号', contact: '刘洋', phone: '13604590004' },
  nursery: { name: '绿源育苗基地', type: 4, inBloc: false, city: '寿光市', address: '山东省寿光市文家街道育苗园区', contact: '陈静', phone: '18653610005' },
};

interface DemoAccount {
  username: string;
  name: string;
  phone: string;
  kind: string;
  role: string | null;
  org: OrgKey | null;
  bloc: boolean;
  city?: string;
  description: string;
}

const ACCOUNTS: DemoAccount[] = [
  { username: 'admin', name: '平台管理员', phone: '13800000001', kind: 'admin', role: 'platformAdmin', org: null, bloc: false, city: '北京市', description: 'platform administrator: every menu and element code' },
  { username: 'farm', name: '张伟', phone: '13800000002', kind: 'operator', role: 'farmOperator', org: 'farm1', bloc: false, description: 'farm operator of 禾丰生态农场 (哈尔滨市)' },
  { username: 'farm2', name: '李娜', phone: '13800000003', kind: 'operator', role: 'farmOperator', org: 'farm2', bloc: false, description: 'farm operator of 嫩江源合作农场 (齐齐哈尔市: header title shown)' },
  { username: 'factory', name: '王强', phone: '13800000004', kind: 'operator', role: 'manufacturer', org: 'factory', bloc: false, description: 'manufacturer 丰沃肥业有限公司' },
  { username: 'center', name: '刘洋', phone: '13800000005', kind: 'operator', role: 'regionalCenter', org: 'center', bloc: false, description: 'regional management center 松嫩平原区域管理中心' },
  { username: 'nursery', name: '陈静', phone: '13800000006', kind: 'operator', role: 'seedlingBase', org: 'nursery', bloc: false, description: 'seedling base 绿源育苗基地' },
  { username: 'provider', name: '赵敏', phone: '13800000007', kind: 'provider', role: 'serviceProvider', org: null, bloc: true, city: '哈尔滨市', description: 'service provider of the bloc 黑土地农业服务集团 (no farm)' },
  { username: 'agent', name: '孙磊', phone: '13800000008', kind: 'agent', role: 'customerAgent', org: null, bloc: false, city: '哈尔滨市', description: 'customer agent' },
  { username: 'tech', name: '周杰', phone: '13800000009', kind: 'tech', role: 'technician', org: null, bloc: true, city: '哈尔滨市', description: 'technician / inspector of the bloc' },
  { username: 'device', name: '吴刚', phone: '13800000010', kind: 'device', role: 'deviceManager', org: 'farm1', bloc: false, description: 'device manager of 禾丰生态农场' },
  { username: 'config', name: '许静', phone: '13800000012', kind: 'config', role: 'configurer', org: null, bloc: false, city: '哈尔滨市', description: 'configurer: the schema studio (publish, roll back), every menu to preview, no other element code' },
  { username: 'mobile', name: '郑芳', phone: '13800000011', kind: 'member', role: null, org: 'farm1', bloc: false, description: 'farm worker with no menus: refused by the web console (mobile end only)' },
];

export const DEMO_ACCOUNTS: { username: string; description: string }[] = ACCOUNTS.map(({ username, description }) => ({ username, description }));

/** The phone number of a demo account (tests and docs). */
export function demoPhone(username: string): string {
  const a = ACCOUNTS.find((x) => x.username === username);
  if (!a) throw new Error(`no demo account ${username}`);
  return a.phone;
}

/**
 * Creates the demo data when the database has no user yet; returns whether it did.
 * Safe to run from several instances at once (advisory lock) and again later (no-op).
 */
export async function seedIfEmpty(db: Database, menusDoc?: MenuDocument): Promise<boolean> {
  const doc = menusDoc ?? (await readMenusFile());
  // Hashing is the slow part; do it before taking the lock, all accounts at once.
  const hashes = await Promise.all(ACCOUNTS.map(() => hashPassword(DEMO_PASSWORD)));
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(74202)');
    const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    if (rows[0].n > 0) return false;
    await syncMenus(tx, doc);
    await seedDemo(tx, doc, hashes);
    await seedResources(tx);
    await seedKnowledge(tx);
    await seedAccountsExtras(tx);
    await seedAdminExtras(tx);
    await seedPlanting(tx);
    await seedMaterials(tx);
    await seedMaterialLibraries(tx);
    await seedLand(tx);
    await seedNurseryLand(tx);
    await seedHarvest(tx);
    await seedDevices(tx);
    await seedDevicePositions(tx);
    await seedFiles(tx);
    return true;
  });
}

async function seedDemo(tx: Queryable, doc: MenuDocument, hashes: string[]): Promise<void> {
  const blocId = (
    await tx.query<{ id: number }>('INSERT INTO blocs(name, city) VALUES ($1, $2) RETURNING id', [BLOC.name, BLOC.city])
  ).rows[0].id;

  const orgIds = {} as Record<OrgKey, number>;
  for (const [key, o] of Object.entries(ORGS) as [OrgKey, (typeof ORGS)[OrgKey]][]) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO organisations(name, type, bloc_id, city, address, contact, phone, logo_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [o.name, o.type, o.inBloc ? blocId : null, o.city, o.address, o.contact, o.phone, DEMO_LOGO_URL],
    );
    orgIds[key] = rows[0].id;
  }
  // The demo center oversees both farms and the seedling base (its region, docs/auth-and-accounts.md).
  await tx.query('UPDATE organisations SET center_id = $1 WHERE id = ANY($2::int[])', [orgIds.center, [orgIds.farm1, orgIds.farm2, orgIds.nursery]]);

  const roleIds = new Map<string, number>();
  for (const spec of ROLE_SPECS) {
    const { menus, elements } = resolveGrants(spec, doc);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO roles(code, name, description, menus, elements, platform, reads_platform) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [spec.code, JSON.stringify(spec.name), spec.description, menus, elements, spec.platform === true, spec.readsPlatform === true],
    );
    roleIds.set(spec.code, rows[0].id);
  }

  for (const [i, a] of ACCOUNTS.entries()) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO users(username, name, mobile_phone, password_hash, kind, org_id, bloc_id, description, city)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [a.username, a.name, a.phone, hashes[i], a.kind, a.org ? orgIds[a.org] : null, a.bloc ? blocId : null, profileOf(a), a.city ?? null],
    );
    if (a.role) await tx.query('INSERT INTO user_roles(user_id, role_id) VALUES ($1, $2)', [rows[0].id, roleIds.get(a.role)]);
  }
}

/** The user's own description (shown by user info): the role's Chinese name, or the mobile-only note. */
function profileOf(a: DemoAccount): string {
  const role = ROLE_SPECS.find((r) => r.code === a.role);
  return role ? role.name.zh : '农场工人（仅限移动端）';
}
