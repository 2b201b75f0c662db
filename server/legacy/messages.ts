import { defineMessages } from '../i18n/catalog.ts';

/** Messages of the account, organisation, notice and business calls (spec 7.2, 7.3). */
export const msg = defineMessages({
  'accounts.usernameTaken': {
    zh: '用户名 {username} 已被使用',
    en: 'The username {username} is already taken',
    es: 'El nombre de usuario {username} ya está en uso',
  },
  'accounts.phoneTaken': {
    zh: '手机号 {phone} 已被其他账号使用',
    en: 'The phone number {phone} is already used by another account',
    es: 'El teléfono {phone} ya lo usa otra cuenta',
  },
  'accounts.staleVersion': {
    zh: '该记录已被他人修改（当前版本 {current}），请刷新后重试',
    en: 'Someone else changed this record (current version {current}); reload and try again',
    es: 'Otra persona modificó este registro (versión actual {current}); recargue e inténtelo de nuevo',
  },
  'accounts.notSelf': {
    zh: '不能对自己的账号执行此操作',
    en: 'You cannot do this to your own account',
    es: 'No puede hacer esto con su propia cuenta',
  },
  'accounts.farmRequired': {
    zh: '请指定所属农场',
    en: 'Please name the farm',
    es: 'Indique la granja',
  },
  'accounts.notAFarm': {
    zh: '该组织不是农场',
    en: 'This organisation is not a farm',
    es: 'Esta organización no es una granja',
  },
  'accounts.roleNotAssignable': {
    zh: '不能分配超出自身权限的角色（{role}）',
    en: 'You cannot assign a role beyond your own permissions ({role})',
    es: 'No puede asignar un rol que supera sus propios permisos ({role})',
  },
  'accounts.roleMissing': {
    zh: '角色 {id} 不存在',
    en: 'Role {id} does not exist',
    es: 'El rol {id} no existe',
  },
  'accounts.blocRequired': {
    zh: '请指定集团',
    en: 'Please name the group of farms',
    es: 'Indique el grupo de granjas',
  },
  'accounts.farmHasUsers': {
    zh: '农场下仍有 {count} 个账号，请先移除',
    en: 'The farm still has {count} accounts; remove them first',
    es: 'La granja aún tiene {count} cuentas; elimínelas primero',
  },
  'accounts.userNotInFarm': {
    zh: '该账号不属于此农场',
    en: 'This account does not belong to the farm',
    es: 'Esta cuenta no pertenece a la granja',
  },
  'accounts.userHasNoOrg': {
    zh: '该账号不属于任何组织',
    en: 'This account belongs to no organisation',
    es: 'Esta cuenta no pertenece a ninguna organización',
  },
  'accounts.userInOtherOrg': {
    zh: '该账号已属于其他组织',
    en: 'This account already belongs to another organisation',
    es: 'Esta cuenta ya pertenece a otra organización',
  },
  'accounts.nothingToChange': {
    zh: '没有需要修改的内容',
    en: 'Nothing to change',
    es: 'No hay nada que cambiar',
  },
  'accounts.idsRequired': {
    zh: '请至少指定技术员或客户经理之一',
    en: 'Name a technician or a customer agent',
    es: 'Indique un técnico o un agente de clientes',
  },
  'notices.notAuthRequest': {
    zh: '该通知无需答复',
    en: 'This notice needs no answer',
    es: 'Este aviso no necesita respuesta',
  },
  'notices.alreadyAnswered': {
    zh: '该授权请求已答复',
    en: 'This authorisation request has already been answered',
    es: 'Esta solicitud de autorización ya tiene respuesta',
  },
  'notices.authGrantedTitle': {
    zh: '农场已同意授权',
    en: 'The farm granted the authorisation',
    es: 'La granja concedió la autorización',
  },
  'notices.authRefusedTitle': {
    zh: '农场已拒绝授权',
    en: 'The farm refused the authorisation',
    es: 'La granja rechazó la autorización',
  },
});
