import type { LocalizedText } from '../i18n/languages.ts';

/** The user info of spec section 3, as the console keeps it. */
export interface UserInfo {
  id: number | string;
  name: string;
  description: string | null;
  farmId: number | string | null;
  farmName: string | null;
  /** Spec section 1: 0 farm, 1 manufacturer, 3 regional management center, 4 seedling base. */
  farmType: number | null;
  groupId: number | string | null;
  groupName: string | null;
  /** Menu codes: the authority keys the user holds. */
  menus: string[];
  /** Element codes (`<menuCode>:<action>`) gating buttons and actions. */
  elements: string[];
  roles: string[];
  /** The account's kind (admin, operator, agent, tech, …): what a person without an organisation is. */
  kind?: string | null;
  city: string | null;
  chiefFarmId: number | string | null;
}

/** A node of the server's menu tree (GET /api/admin/user/front/menus2), spec section 3. */
export interface MenuItem {
  id: number | string;
  code: string;
  /** `{zh, en, es}` from the server; a plain string from older servers. */
  title: LocalizedText | string;
  name?: string;
  /** URL segment of the entry; the code when the server sends none. */
  path: string;
  icon?: string | null;
  sort: number;
  hidden: boolean;
  children: MenuItem[];
}

/** The server's info reply, checked and normalised: unknown fields ignored, lists of `{code}` flattened. */
export function parseUserInfo(data: unknown): UserInfo {
  if (!data || typeof data !== 'object') throw new TypeError('user info: not an object');
  const d = data as Record<string, unknown>;
  return {
    id: idOf(d.id) ?? '',
    name: str(d.name) ?? '',
    description: str(d.description),
    farmId: idOf(d.farmId),
    farmName: str(d.farmName),
    farmType: numOf(d.farmType),
    groupId: idOf(d.groupId),
    groupName: str(d.groupName),
    menus: codes(d.menus),
    elements: codes(d.elements),
    roles: Array.isArray(d.roles) ? d.roles.map((r) => (typeof r === 'string' ? r : str((r as { code?: unknown })?.code) ?? '')).filter(Boolean) : [],
    kind: str(d.kind),
    city: str(d.city),
    chiefFarmId: idOf(d.chiefFarmId),
  };
}

export function parseMenuTree(data: unknown): MenuItem[] {
  const list = Array.isArray(data) ? data : Array.isArray((data as { children?: unknown })?.children) ? (data as { children: unknown[] }).children : [];
  return list.flatMap((raw) => {
    if (!raw || typeof raw !== 'object') return [];
    const m = raw as Record<string, unknown>;
    const code = str(m.code);
    if (!code) return [];
    return [
      {
        id: idOf(m.id) ?? code,
        code,
        title: (m.title && typeof m.title === 'object' ? (m.title as LocalizedText) : str(m.title) ?? str(m.name) ?? code),
        name: str(m.name) ?? undefined,
        path: (str(m.path) ?? code).replace(/^\/+|\/+$/g, '') || code,
        icon: str(m.icon),
        sort: numOf(m.sort) ?? 0,
        hidden: m.hidden === true || m.hidden === 1 || m.hidden === '1' || m.hidden === 'true',
        children: parseMenuTree(m.children),
      },
    ];
  });
}

export type OrganisationKind = 'farm' | 'manufacturer' | 'center' | 'seedlingBase' | 'provider' | 'agent' | 'technician' | 'inspector' | 'platform';

/** The organisation label of spec section 1, by farmType; only a group set means a service provider. */
export function organisationKind(info: Pick<UserInfo, 'farmType' | 'groupId'> & { kind?: string | null }): OrganisationKind | null {
  switch (info.farmType) {
    case 0:
      return 'farm';
    case 1:
      return 'manufacturer';
    case 3:
      return 'center';
    case 4:
      return 'seedlingBase';
  }
  // Without an organisation, the account's kind says what the person is: a customer agent
  // or a technician is not the platform (issue 9, item 10).
  switch (info.kind) {
    case 'agent':
      return 'agent';
    case 'tech':
      return 'technician';
    case 'inspector':
      return 'inspector';
    case 'admin':
      return 'platform';
  }
  return info.groupId !== null && info.groupId !== '' ? 'provider' : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}
function numOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}
function idOf(v: unknown): number | string | null {
  return typeof v === 'number' || (typeof v === 'string' && v !== '') ? v : null;
}
function codes(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.map((e) => (typeof e === 'string' ? e : str((e as { code?: unknown })?.code))).filter((c): c is string => !!c);
}
