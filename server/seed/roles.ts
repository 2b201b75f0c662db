import type { LocalText, MenuDocument, MenuChild } from '../../runtime/schema/menus.ts';

/**
 * The demo roles and the authority keys each receives (documented in
 * docs/auth-and-accounts.md). A grant names a section and either all of its children
 * or some of them; `read` grants only the view and export elements of those entries.
 */
interface Grant {
  section: string;
  children?: string[];
  read?: boolean;
}

export interface RoleSpec {
  code: string;
  name: LocalText;
  description: string;
  platform?: boolean;
  /** Reads every organisation's records, writes none beyond its own scope (migration 140). */
  readsPlatform?: boolean;
  /** undefined: every menu and element code of the tree. */
  grants?: Grant[];
  /** Every menu code of the tree besides the grants, without their element codes (reads only). */
  everyMenu?: boolean;
}

const all = (section: string, read = false): Grant => ({ section, read });
const some = (section: string, children: string[], read = false): Grant => ({ section, children, read });

const READ_ACTIONS = new Set(['view', 'export']);
/**
 * Actions only the platform role holds, whatever a section grant says: `region` moves an
 * organisation into a regional center's region, which decides who reads its records.
 */
const PLATFORM_ACTIONS = new Set(['region']);

export const ROLE_SPECS: RoleSpec[] = [
  {
    code: 'platformAdmin',
    name: { zh: '平台管理员', en: 'Platform administrator', es: 'Administrador de la plataforma' },
    description: 'Every menu and element code; platform-wide scope.',
    platform: true,
  },
  {
    code: 'farmOperator',
    name: { zh: '农场经营者', en: 'Farm operator', es: 'Operador de granja' },
    description: 'Runs one farm: land, planting, devices, materials, harvest, sales, quality; reads the knowledge base.',
    grants: [
      all('farmMain'), all('basicInfo'), all('landManagement'), all('Bigland'), all('farm'), all('sunlightGreenhouse'),
      all('plantManagement'), all('farmPlantGroup'), all('productionManagement'), all('environment'), all('weatherAndSituation'),
      all('farmControllRoom'), all('equipmentControll'), all('equipment'), all('farmDevice'), all('farmInput'),
      all('farmMaterialsManage'), all('shareMaterial'), all('farmStorehouse'), all('farmHarvest'), all('farmAccounting'),
      all('marketing'), all('qualityandSafety'), all('trackInfoManage'), all('commentSuggestion'), all('showMap'),
      some('agricultureKnowledge', ['agricultureKnowledgeIndex', 'notice', 'agricultureKnowledgeCropsManager', 'agricultureKnowledgePlantRules', 'agricultureKnowledgeStandard', 'agricultureKnowledgeFarmWork'], true),
      // The farm's own planting templates; the platform's system templates read-only, to copy from.
      some('agricultureKnowledge', ['agricultureKnowledgePatternTemplate']), all('sysTemplateManage', true),
    ],
  },
  {
    code: 'manufacturer',
    name: { zh: '农资厂家', en: 'Manufacturer', es: 'Fabricante' },
    description: 'Fertilizer and input manufacturer: its products, dealers, orders and product libraries.',
    grants: [
      all('farmMain'), all('fertilizerFactory'), some('marketing', ['introduce', 'brand']),
      some('bigData-kms', ['tankFactory', 'tankFertilizer', 'tankPesticide', 'tankSeed', 'tankSeedling', 'tankAgent']),
      // The cross-kind list and the one library form (material/add|edit|show/…/:mainType), read-only:
      // writing an entry still needs its kind's element code (server/knowledge/library-extensions.ts).
      some('bigData-kms', ['materielManager'], true),
      some('agricultureKnowledge', ['agricultureKnowledgeIndex', 'notice'], true),
    ],
  },
  {
    code: 'regionalCenter',
    name: { zh: '区域管理中心', en: 'Regional management center', es: 'Centro de gestión regional' },
    description: 'Oversees the farms of a region: reviews planting rules, follows quality, weather and traceability, curates crop knowledge.',
    grants: [
      all('farmMain'), all('multiFarm', true), all('showMap'), all('examineFactory'), all('commentSuggestion'),
      all('trackInfoManage', true), all('qualityandSafety', true), all('weatherAndSituation'), all('environment', true),
      all('agricultureKnowledge'),
      some('bigData-kms', ['cropsManager', 'cropClassify', 'cropSubtype', 'plantRules', 'farmWork', 'patternTemplate', 'standard']),
    ],
  },
  {
    code: 'seedlingBase',
    name: { zh: '育苗基地', en: 'Seedling base', es: 'Vivero' },
    description: 'Seedling nursery: its seedlings, planting groups, land, materials and sales.',
    grants: [
      all('farmMain'), all('nurseryManage'), all('farmPlantGroup'), all('plantManagement'), all('landManagement'),
      all('farmMaterialsManage'), all('farmStorehouse'), all('environment'), all('weatherAndSituation'), all('marketing'),
      some('agricultureKnowledge', ['agricultureKnowledgeIndex', 'notice', 'agricultureKnowledgeTankSeedling', 'agricultureKnowledgeMaterielManager', 'agricultureKnowledgeFarmWork'], true),
      some('agricultureKnowledge', ['agricultureKnowledgePatternTemplate']), all('sysTemplateManage', true),
    ],
  },
  {
    code: 'serviceProvider',
    name: { zh: '服务商', en: 'Service provider', es: 'Proveedor de servicios' },
    description: 'Group customer serving a bloc of farms: its farms, map, weather; reads quality and traceability.',
    grants: [
      all('yxhome'), all('groupCustomer'), all('multiFarm'), all('showMap'), all('weatherAndSituation'),
      all('trackInfoManage', true), all('qualityandSafety', true), all('marketing', true),
      some('agricultureKnowledge', ['agricultureKnowledgeIndex', 'notice'], true),
    ],
  },
  {
    code: 'customerAgent',
    name: { zh: '客户经理', en: 'Customer agent', es: 'Agente de clientes' },
    description: 'Looks after customers: its customer list and business; reads the knowledge base and notices.',
    grants: [
      // Its own customers and business; no farm's records (it belongs to no organisation or bloc).
      all('customerAgent'),
      some('agricultureKnowledge', ['agricultureKnowledgeIndex', 'notice'], true),
    ],
  },
  {
    code: 'technician',
    name: { zh: '技术员/巡检员', en: 'Technician / inspector', es: 'Técnico / inspector' },
    description: 'Inspects farms: reviews planting rules, records quality and field conditions, reads planting groups.',
    grants: [
      all('farmMain'), all('examineFactory'), all('commentSuggestion'), all('qualityandSafety'), all('weatherAndSituation'),
      some('plantManagement', ['plantManagementFarmPlantGroup'], true), all('farmPlantGroup', true), all('trackInfoManage'),
      some('agricultureKnowledge', ['agricultureKnowledgeIndex', 'notice', 'agricultureKnowledgeCropsManager', 'agricultureKnowledgePlantRules'], true),
    ],
  },
  {
    code: 'deviceManager',
    name: { zh: '设备管理员', en: 'Device manager', es: 'Gestor de dispositivos' },
    description: 'Builds and runs the field equipment: control room, smart control, devices, irrigation and facilities.',
    grants: [
      all('farmMain'), all('farmControllRoom'), all('equipmentControll'), all('farmDevice'), all('equipment'),
      all('sunlightGreenhouse', true), all('environment'),
      some('basicInfo', ['constructSmartSystem', 'basicInfoFarmDevice', 'facilities']),
    ],
  },
  {
    code: 'configurer',
    name: { zh: '配置员', en: 'Configurer', es: 'Configurador' },
    description:
      'Changes screens, menus and translations in the schema studio and publishes them: the studio codes, and every menu code (to preview screens with real data) without any other element code.',
    grants: [all('studio')],
    everyMenu: true,
    readsPlatform: true,
  },
];

/** The menu and element codes a role spec grants within the menu tree `doc`. */
export function resolveGrants(spec: RoleSpec, doc: MenuDocument): { menus: string[]; elements: string[] } {
  const menus: string[] = [];
  const elements: string[] = [];
  const take = (entry: MenuChild, read: boolean) => {
    menus.push(entry.code);
    for (const el of entry.elements ?? []) {
      const action = el.code.slice(el.code.indexOf(':') + 1);
      if (spec.grants && PLATFORM_ACTIONS.has(action)) continue;
      if (!read || READ_ACTIONS.has(action)) elements.push(el.code);
    }
  };
  for (const section of doc.menus) {
    if (spec.everyMenu) menus.push(section.code, ...section.children.map((c) => c.code));
    if (!spec.grants) {
      take(section, false);
      section.children.forEach((c) => take(c, false));
      continue;
    }
    for (const grant of spec.grants.filter((g) => g.section === section.code)) {
      take(section, grant.read === true);
      for (const child of section.children) {
        if (!grant.children || grant.children.includes(child.code)) take(child, grant.read === true);
      }
      const unknown = (grant.children ?? []).filter((c) => !section.children.some((x) => x.code === c));
      if (unknown.length) throw new Error(`role ${spec.code}: ${unknown.join(', ')} are not children of ${section.code}`);
    }
  }
  const unknownSections = (spec.grants ?? []).filter((g) => !doc.menus.some((s) => s.code === g.section));
  if (unknownSections.length) throw new Error(`role ${spec.code}: no section ${unknownSections.map((g) => g.section).join(', ')}`);
  return { menus: [...new Set(menus)], elements: [...new Set(elements)] };
}
