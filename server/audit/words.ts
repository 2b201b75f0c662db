/**
 * The operation log in words: what each audited action, resource and field is called in
 * zh, en and es. Resource documents name themselves (their titles and their fields'
 * x-titles); the hand-written calls (sign-in, passwords, roles, users, organisations, …)
 * are named here. An action belongs to a family, the part of its code before the dot,
 * so that «用户» finds every user action; the organisation-member actions count as user
 * actions.
 */
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import type { Lang } from '../i18n/lang.ts';

export type Words = Record<Lang, string>;

const w = (zh: string, en: string, es: string): Words => ({ zh, en, es });

/** Families of the hand-written actions. */
const FAMILIES: Record<string, Words> = {
  login: w('登录与退出', 'Sign-in and sign-out', 'Inicio y cierre de sesión'),
  password: w('密码', 'Passwords', 'Contraseñas'),
  sms: w('短信验证码', 'SMS codes', 'Códigos SMS'),
  registration: w('注册申请', 'Registrations', 'Registros'),
  role: w('角色', 'Roles', 'Roles'),
  user: w('用户', 'Users', 'Usuarios'),
  org: w('组织', 'Organisations', 'Organizaciones'),
  bloc: w('集团', 'Groups', 'Grupos'),
  menu: w('菜单', 'Menus', 'Menús'),
  notice: w('通知', 'Notices', 'Avisos'),
  business: w('授权申请', 'Authorisation requests', 'Solicitudes de autorización'),
  studio: w('配置工作室', 'Schema studio', 'Estudio de esquemas'),
  devices: w('设备', 'Devices', 'Dispositivos'),
  purchaseOrders: w('农资采购单', 'Purchase orders', 'Pedidos de compra'),
  materialMovements: w('出入库单', 'Stock movements', 'Movimientos de existencias'),
};

/** The family of an action code that is not `<family>.<verb>`. */
const FAMILY_OF: Record<string, string> = { logout: 'login', register: 'registration', orgUser: 'user' };

const ACTIONS: Record<string, Words> = {
  login: w('登录', 'Signed in', 'Inicio de sesión'),
  'login.failed': w('登录失败', 'Failed sign-in', 'Inicio de sesión fallido'),
  'login.throttled': w('登录受限（尝试过多）', 'Sign-in held back (too many attempts)', 'Inicio de sesión retenido (demasiados intentos)'),
  'login.disabled': w('停用账号尝试登录', 'Sign-in by a disabled account', 'Inicio de sesión de una cuenta deshabilitada'),
  logout: w('退出登录', 'Signed out', 'Cierre de sesión'),
  'sms.send': w('发送短信验证码', 'SMS code sent', 'Código SMS enviado'),
  'password.change': w('修改密码（短信验证）', 'Password changed (SMS code)', 'Contraseña cambiada (código SMS)'),
  'password.reset': w('管理员设置密码', 'Password set by an administrator', 'Contraseña fijada por un administrador'),
  register: w('提交注册申请', 'Registration requested', 'Registro solicitado'),
  'registration.approve': w('通过注册申请', 'Registration approved', 'Registro aprobado'),
  'registration.reject': w('驳回注册申请', 'Registration rejected', 'Registro rechazado'),
  'role.create': w('新增角色', 'Role added', 'Rol añadido'),
  'role.update': w('修改角色', 'Role edited', 'Rol editado'),
  'role.delete': w('删除角色', 'Role deleted', 'Rol eliminado'),
  'role.permissions': w('修改角色权限', 'Role permissions changed', 'Permisos del rol cambiados'),
  'user.create': w('新增用户', 'User added', 'Usuario añadido'),
  'user.update': w('修改用户', 'User edited', 'Usuario editado'),
  'user.delete': w('删除用户', 'User deleted', 'Usuario eliminado'),
  'user.status': w('启用或停用用户', 'User enabled or disabled', 'Usuario habilitado o deshabilitado'),
  'user.roles': w('修改用户角色', 'User roles changed', 'Roles del usuario cambiados'),
  'user.resetPassword': w('重置用户密码', 'User password reset', 'Contraseña del usuario restablecida'),
  'orgUser.assign': w('将用户加入组织', 'User put into an organisation', 'Usuario incorporado a una organización'),
  'orgUser.remove': w('将用户移出组织', 'User taken out of an organisation', 'Usuario retirado de una organización'),
  'org.create': w('新增组织', 'Organisation added', 'Organización añadida'),
  'org.update': w('修改组织', 'Organisation edited', 'Organización editada'),
  'org.delete': w('删除组织', 'Organisation deleted', 'Organización eliminada'),
  'bloc.create': w('新增集团', 'Group added', 'Grupo añadido'),
  'bloc.update': w('修改集团', 'Group edited', 'Grupo editado'),
  'menu.create': w('新增菜单', 'Menu entry added', 'Entrada de menú añadida'),
  'menu.update': w('修改菜单', 'Menu entry edited', 'Entrada de menú editada'),
  'menu.delete': w('删除菜单', 'Menu entry deleted', 'Entrada de menú eliminada'),
  'notice.read': w('阅读通知', 'Notice read', 'Aviso leído'),
  'business.responseAuth': w('答复授权申请', 'Authorisation request answered', 'Solicitud de autorización respondida'),
  'studio.draft': w('保存文档草稿', 'Document draft saved', 'Borrador de documento guardado'),
  'studio.publish': w('发布文档', 'Document published', 'Documento publicado'),
  'studio.rollback': w('回滚文档', 'Document rolled back', 'Documento revertido'),
  'devices.command.switch': w('设备控制：开关', 'Device control: switch', 'Control de dispositivo: interruptor'),
  'devices.command.valve': w('设备控制：阀门', 'Device control: valve', 'Control de dispositivo: válvula'),
  'devices.command.airConditioner': w('设备控制：空调', 'Device control: air conditioner', 'Control de dispositivo: aire acondicionado'),
  'devices.command.fertigation': w('设备控制：水肥一体机', 'Device control: fertigation', 'Control de dispositivo: fertirrigación'),
  'devices.gateway.create': w('新增网关', 'Gateway added', 'Pasarela añadida'),
  'devices.gateway.update': w('修改网关', 'Gateway edited', 'Pasarela editada'),
  'devices.gateway.secret': w('重置网关密钥', 'Gateway secret reset', 'Clave de pasarela restablecida'),
  'devices.gateway.delete': w('删除网关', 'Gateway deleted', 'Pasarela eliminada'),
  'devices.device.create': w('新增设备', 'Device added', 'Dispositivo añadido'),
  'devices.device.update': w('修改设备', 'Device edited', 'Dispositivo editado'),
  'devices.device.delete': w('删除设备', 'Device deleted', 'Dispositivo eliminado'),
  'devices.scenario.create': w('新增联动场景', 'Scenario added', 'Escenario añadido'),
  'devices.scenario.update': w('修改联动场景', 'Scenario edited', 'Escenario editado'),
  'devices.scenario.enable': w('启用联动场景', 'Scenario enabled', 'Escenario habilitado'),
  'devices.scenario.disable': w('停用联动场景', 'Scenario disabled', 'Escenario deshabilitado'),
  'devices.scenario.delete': w('删除联动场景', 'Scenario deleted', 'Escenario eliminado'),
  'purchaseOrders.create': w('新增采购单', 'Purchase order added', 'Pedido de compra añadido'),
  'purchaseOrders.update': w('修改采购单', 'Purchase order edited', 'Pedido de compra editado'),
  'purchaseOrders.delete': w('删除采购单', 'Purchase order deleted', 'Pedido de compra eliminado'),
  'purchaseOrders.submit': w('提交采购单', 'Purchase order submitted', 'Pedido de compra enviado'),
  'purchaseOrders.accept': w('厂家接单', 'Purchase order accepted', 'Pedido de compra aceptado'),
  'purchaseOrders.refuse': w('厂家拒单', 'Purchase order refused', 'Pedido de compra rechazado'),
  'purchaseOrders.ship': w('厂家发货', 'Purchase order shipped', 'Pedido de compra enviado por el vendedor'),
  'purchaseOrders.receive': w('采购单收货', 'Purchase order received', 'Pedido de compra recibido'),
  'purchaseOrders.close': w('关闭采购单', 'Purchase order closed', 'Pedido de compra cerrado'),
  'materialMovements.stockIn': w('入库', 'Stock in', 'Entrada'),
  'materialMovements.stockOut': w('出库', 'Stock out', 'Salida'),
  'materialMovements.handOverIn': w('调拨入库', 'Handover received', 'Traspaso recibido'),
  'materialMovements.handOverOut': w('调拨出库', 'Handover sent', 'Traspaso enviado'),
  'materialMovements.reverse': w('冲销出入库单', 'Stock movement reversed', 'Movimiento anulado'),
};

/** Tables and other things acted on by the hand-written calls. */
const RESOURCES: Record<string, Words> = {
  session: w('会话', 'Session', 'Sesión'),
  users: w('用户', 'Users', 'Usuarios'),
  roles: w('角色', 'Roles', 'Roles'),
  menus: w('菜单', 'Menus', 'Menús'),
  organisations: w('组织', 'Organisations', 'Organizaciones'),
  blocs: w('集团', 'Groups', 'Grupos'),
  registration_requests: w('注册申请', 'Registration requests', 'Solicitudes de registro'),
  sms_codes: w('短信验证码', 'SMS codes', 'Códigos SMS'),
  notices: w('通知', 'Notices', 'Avisos'),
  business: w('授权申请', 'Authorisation requests', 'Solicitudes de autorización'),
  schemas: w('页面与菜单文档', 'Screen and menu documents', 'Documentos de pantallas y menús'),
  devices: w('设备', 'Devices', 'Dispositivos'),
  deviceGateways: w('网关', 'Gateways', 'Pasarelas'),
  deviceScenarios: w('联动场景', 'Scenarios', 'Escenarios'),
  purchaseOrders: w('农资采购单', 'Purchase orders', 'Pedidos de compra'),
  materialMovements: w('出入库单', 'Stock movements', 'Movimientos de existencias'),
};

/** Field names of the hand-written calls' change records. */
const FIELDS: Record<string, Words> = {
  username: w('用户名', 'Username', 'Usuario'),
  name: w('名称', 'Name', 'Nombre'),
  mobilePhone: w('手机号', 'Phone', 'Teléfono'),
  phone: w('手机号', 'Phone', 'Teléfono'),
  status: w('状态', 'Status', 'Estado'),
  roles: w('角色', 'Roles', 'Roles'),
  role: w('角色', 'Role', 'Rol'),
  orgId: w('组织', 'Organisation', 'Organización'),
  blocId: w('集团', 'Group', 'Grupo'),
  farmId: w('农场', 'Farm', 'Granja'),
  userId: w('用户', 'User', 'Usuario'),
  kind: w('用户类型', 'User type', 'Tipo de usuario'),
  description: w('说明', 'Description', 'Descripción'),
  city: w('城市', 'City', 'Ciudad'),
  code: w('编码', 'Code', 'Código'),
  category: w('类型', 'Type', 'Tipo'),
  platform: w('平台角色', 'Platform role', 'Rol de plataforma'),
  added: w('授予', 'Granted', 'Concedido'),
  removed: w('移除', 'Removed', 'Retirado'),
  menus: w('菜单', 'Menus', 'Menús'),
  elements: w('按钮', 'Elements', 'Elementos'),
  title: w('标题', 'Title', 'Título'),
  path: w('路径', 'Path', 'Ruta'),
  icon: w('图标', 'Icon', 'Icono'),
  sort: w('排序', 'Order', 'Orden'),
  hidden: w('隐藏', 'Hidden', 'Oculto'),
  parentId: w('上级', 'Parent', 'Superior'),
  defaultChild: w('默认子菜单', 'Default child', 'Hijo por defecto'),
  rolesChanged: w('受影响的角色', 'Roles affected', 'Roles afectados'),
  type: w('类型', 'Type', 'Tipo'),
  address: w('地址', 'Address', 'Dirección'),
  contact: w('联系人', 'Contact', 'Contacto'),
  orgName: w('组织名称', 'Organisation name', 'Nombre de la organización'),
  orgType: w('组织类型', 'Organisation type', 'Tipo de organización'),
  reason: w('原因', 'Reason', 'Motivo'),
  read: w('已读', 'Read', 'Leído'),
  noticeId: w('通知', 'Notice', 'Aviso'),
  purpose: w('用途', 'Purpose', 'Finalidad'),
  password: w('密码', 'Password', 'Contraseña'),
  registration: w('注册申请', 'Registration request', 'Solicitud de registro'),
  logoUrl: w('标志', 'Logo', 'Logotipo'),
  contactPhone: w('联系电话', 'Contact phone', 'Teléfono de contacto'),
  revision: w('修订', 'Revision', 'Revisión'),
  baseRevision: w('基于修订', 'Based on revision', 'Basado en la revisión'),
  comment: w('说明', 'Comment', 'Comentario'),
  restores: w('恢复的修订', 'Revision restored', 'Revisión restaurada'),
  diff: w('修改内容', 'Changes', 'Cambios'),
  pointer: w('位置', 'Place', 'Lugar'),
  text: w('修改', 'Change', 'Cambio'),
  // Devices: commands, gateways, scenarios.
  menu: w('菜单', 'Menu', 'Menú'),
  device: w('设备', 'Device', 'Dispositivo'),
  deviceId: w('设备', 'Device', 'Dispositivo'),
  commandId: w('指令编号', 'Command', 'Orden'),
  params: w('参数', 'Settings', 'Parámetros'),
  open: w('开启', 'Open', 'Abierto'),
  on: w('开关', 'On', 'Encendido'),
  minutes: w('时长（分钟）', 'Minutes', 'Minutos'),
  power: w('电源', 'Power', 'Encendido'),
  mode: w('模式', 'Mode', 'Modo'),
  setPoint: w('设定温度', 'Set-point', 'Consigna'),
  trigger: w('触发条件', 'Trigger', 'Disparador'),
  place: w('位置', 'Place', 'Lugar'),
  op: w('比较', 'Comparison', 'Comparación'),
  value: w('数值', 'Value', 'Valor'),
  deadband: w('回差', 'Dead band', 'Banda muerta'),
  minIntervalS: w('最短间隔（秒）', 'Shortest interval (s)', 'Intervalo mínimo (s)'),
  at: w('时间', 'Time', 'Hora'),
  from: w('开始', 'From', 'Desde'),
  to: w('结束', 'To', 'Hasta'),
  action: w('动作', 'Action', 'Acción'),
  alarm: w('告警', 'Alarm', 'Alarma'),
  enabled: w('启用', 'Enabled', 'Habilitado'),
  // Stock and orders.
  number: w('单号', 'Number', 'Número'),
  lines: w('明细', 'Lines', 'Líneas'),
  materialId: w('农资', 'Material', 'Insumo'),
  storeId: w('仓库', 'Store', 'Almacén'),
  supplierId: w('供应商', 'Supplier', 'Proveedor'),
  quantity: w('数量', 'Quantity', 'Cantidad'),
  unitPrice: w('单价', 'Unit price', 'Precio unitario'),
  amount: w('金额', 'Amount', 'Importe'),
  batch: w('批次', 'Batch', 'Lote'),
  direction: w('方向', 'Direction', 'Dirección'),
  movedOn: w('日期', 'Date', 'Fecha'),
  reversesId: w('冲销单', 'Reverses', 'Anula'),
  shipped: w('已发货数量', 'Shipped', 'Enviado'),
  received: w('已收货数量', 'Received', 'Recibido'),
  note: w('备注', 'Note', 'Nota'),
};

/** Field names that mean something else on one resource (a scenario's `kind` is a reading, not a user type). */
const RESOURCE_FIELDS: Record<string, Record<string, Words>> = {
  deviceScenarios: { kind: w('监测项', 'Reading', 'Lectura'), type: w('触发方式', 'Trigger type', 'Tipo de disparador') },
  devices: { kind: w('设备类型', 'Device type', 'Tipo de dispositivo') },
};

/**
 * Coded values that mean the same whatever the resource (a reading kind, a comparison, a
 * device action), by field: the last resort before a value shows as itself.
 */
const VALUE_WORDS: Record<string, Record<string, Words>> = {
  kind: {
    airTemperature: w('空气温度', 'Air temperature', 'Temperatura del aire'),
    airHumidity: w('空气湿度', 'Air humidity', 'Humedad del aire'),
    soilMoisture: w('土壤湿度', 'Soil moisture', 'Humedad del suelo'),
    soilTemperature: w('土壤温度', 'Soil temperature', 'Temperatura del suelo'),
    light: w('光照', 'Light', 'Luz'),
    co2: w('二氧化碳', 'CO₂', 'CO₂'),
    ec: w('电导率', 'EC', 'CE'),
    ph: w('pH', 'pH', 'pH'),
    rainfall: w('降雨量', 'Rainfall', 'Lluvia'),
    windSpeed: w('风速', 'Wind speed', 'Viento'),
  },
  op: { above: w('高于', 'above', 'por encima de'), below: w('低于', 'below', 'por debajo de') },
  type: { threshold: w('阈值触发', 'Threshold', 'Umbral'), schedule: w('定时', 'Schedule', 'Horario') },
  action: {
    switch: w('开关', 'Switch', 'Interruptor'),
    valve: w('阀门', 'Valve', 'Válvula'),
    airConditioner: w('空调', 'Air conditioner', 'Aire acondicionado'),
    fertigation: w('水肥一体机', 'Fertigation', 'Fertirrigación'),
  },
  mode: { cool: w('制冷', 'Cool', 'Frío'), heat: w('制热', 'Heat', 'Calor'), dry: w('除湿', 'Dry', 'Deshumidificar'), fan: w('送风', 'Fan', 'Ventilar'), auto: w('自动', 'Auto', 'Automático') },
  direction: { in: w('入库', 'In', 'Entrada'), out: w('出库', 'Out', 'Salida') },
};

/** Coded values of the hand-written tables, by resource and field. */
const VALUES: Record<string, Record<string, Record<string, Words>>> = {
  users: { status: { 0: w('停用', 'Disabled', 'Deshabilitado'), 1: w('启用', 'Enabled', 'Habilitado') } },
  business: {
    status: { 0: w('待处理', 'Pending', 'Pendiente'), 1: w('已授权', 'Granted', 'Concedida'), 2: w('已拒绝', 'Refused', 'Rechazada') },
  },
  purchaseOrders: {
    status: {
      draft: w('草稿', 'Draft', 'Borrador'),
      submitted: w('已提交', 'Submitted', 'Enviado'),
      accepted: w('已接单', 'Accepted', 'Aceptado'),
      refused: w('已拒绝', 'Refused', 'Rechazado'),
      shipped: w('已发货', 'Shipped', 'Enviado por el vendedor'),
      received: w('已收货', 'Received', 'Recibido'),
      closed: w('已关闭', 'Closed', 'Cerrado'),
    },
  },
};

const RECORD_VERBS: Record<string, Words> = {
  create: w('新增', 'added', 'añadido'),
  update: w('修改', 'edited', 'editado'),
  delete: w('删除', 'deleted', 'eliminado'),
};

export interface AuditCatalogue {
  /** The words of an action code; unknown codes read as themselves. */
  action(code: string, lang: Lang): string;
  family(code: string): string;
  familyWords(family: string): Words | undefined;
  /** Every family with its words, in catalogue order. */
  families(): { value: string; label: Words }[];
  resource(name: string | null, lang: Lang): string | null;
  /** The title of a field of a change on `resource`. */
  field(resource: string | null, field: string, lang: Lang): string;
  /** The title of an enumerated value of a resource document's field (x-enumTitles), if it has one. */
  enumTitle(resource: string | null, field: string, value: unknown, lang: Lang): string | undefined;
  /** A resource document acted on, for reading its records' names. */
  document(name: string | null): ResourceDocument | undefined;
  knowsAction(code: string): boolean;
  knowsResource(name: string): boolean;
  /** Every catalogued action code of a family. */
  actionsOf(family: string): string[];
  /** The action codes whose words or family words contain `text` (any language, case-insensitive). */
  actionsMatching(text: string): string[];
  /** The resource names whose words contain `text`. */
  resourcesMatching(text: string): string[];
}

const matches = (words: Words | undefined, q: string) => !!words && Object.values(words).some((s) => s.toLowerCase().includes(q));

export function auditCatalogue(docs: readonly ResourceDocument[]): AuditCatalogue {
  const byName = new Map(docs.map((d) => [d.name, d]));
  const actions = new Map<string, Words>(Object.entries(ACTIONS));
  for (const d of docs) {
    for (const [verb, words] of Object.entries(RECORD_VERBS)) {
      actions.set(`${d.name}.${verb}`, { zh: `${words.zh}${d.title.zh}`, en: `${d.title.en}: ${words.en}`, es: `${d.title.es}: ${words.es}` });
    }
  }
  const familyOf = (code: string) => {
    const head = code.split('.')[0];
    return FAMILY_OF[head] ?? head;
  };
  const familyWords = (family: string): Words | undefined => FAMILIES[family] ?? (byName.get(family)?.title as Words | undefined);
  return {
    action: (code, lang) => actions.get(code)?.[lang] ?? code,
    knowsAction: (code) => actions.has(code),
    knowsResource: (name) => name in RESOURCES || byName.has(name),
    actionsOf: (family) => [...actions.keys()].filter((code) => familyOf(code) === family),
    family: familyOf,
    familyWords,
    families: () => [
      ...Object.entries(FAMILIES).map(([value, label]) => ({ value, label })),
      ...docs.map((d) => ({ value: d.name, label: d.title as Words })),
    ],
    resource: (name, lang) => {
      if (!name) return null;
      const words = RESOURCES[name] ?? (byName.get(name)?.title as Words | undefined);
      return words?.[lang] ?? name;
    },
    field: (resource, field, lang) => {
      const prop = resource ? propertyOf(byName.get(resource), field) : undefined;
      const title = (prop as { 'x-title'?: Words } | undefined)?.['x-title'];
      return title?.[lang] ?? (resource ? RESOURCE_FIELDS[resource]?.[field]?.[lang] : undefined) ?? FIELDS[field]?.[lang] ?? field;
    },
    enumTitle: (resource, field, value, lang) => {
      const prop = resource ? (propertyOf(byName.get(resource), field) as { enum?: unknown[]; 'x-enumTitles'?: Words[] } | undefined) : undefined;
      const at = prop?.enum?.indexOf(value) ?? -1;
      if (at >= 0) return prop?.['x-enumTitles']?.[at]?.[lang];
      if (typeof value !== 'number' && typeof value !== 'string') return undefined;
      return (resource ? VALUES[resource]?.[field]?.[String(value)]?.[lang] : undefined) ?? VALUE_WORDS[field]?.[String(value)]?.[lang];
    },
    document: (name) => (name ? byName.get(name) : undefined),
    actionsMatching: (text) => {
      const q = text.trim().toLowerCase();
      if (!q) return [];
      return [...actions.entries()].filter(([code, words]) => code.toLowerCase() === q || matches(words, q) || matches(familyWords(familyOf(code)), q)).map(([code]) => code);
    },
    resourcesMatching: (text) => {
      const q = text.trim().toLowerCase();
      if (!q) return [];
      const all: [string, Words][] = [...Object.entries(RESOURCES), ...docs.map((d): [string, Words] => [d.name, d.title as Words])];
      return all.filter(([name, words]) => name.toLowerCase() === q || matches(words, q)).map(([name]) => name);
    },
  };
}

type Prop = { properties?: Record<string, Prop>; items?: Prop; type?: string };

/**
 * A property of a document's record by name: a top-level one, else the first of that name in
 * its nested objects and line items (a stock line's `materialId`, a plan item's `materials`).
 */
function propertyOf(doc: ResourceDocument | undefined, field: string): unknown {
  if (!doc) return undefined;
  const top = doc.record.properties as Record<string, Prop>;
  if (top[field]) return top[field];
  const queue: Prop[] = Object.values(top);
  while (queue.length) {
    const p = queue.shift()!;
    const props = p.type === 'array' ? p.items?.properties : p.properties;
    if (!props) continue;
    if (props[field]) return props[field];
    queue.push(...Object.values(props));
  }
  return undefined;
}
