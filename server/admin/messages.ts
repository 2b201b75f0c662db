import { defineMessages } from '../i18n/catalog.ts';

/** Messages of the platform administration calls (docs/admin-api.md). */
export const msg = defineMessages({
  'admin.codeTaken': {
    zh: '编码 {code} 已存在',
    en: 'The code {code} already exists',
    es: 'El código {code} ya existe',
  },
  'admin.itemValueRepeated': {
    zh: '字典项的值 {value} 重复',
    en: 'The item value {value} appears more than once',
    es: 'El valor de elemento {value} aparece más de una vez',
  },
  'admin.versionTaken': {
    zh: '{platform} 已有版本号 {versionCode}',
    en: '{platform} already has version code {versionCode}',
    es: '{platform} ya tiene el código de versión {versionCode}',
  },
  'admin.categoryInUse': {
    zh: '有 {count} 个角色属于该分类，不能删除',
    en: '{count} roles belong to this category; it cannot be deleted',
    es: '{count} roles pertenecen a esta categoría; no se puede eliminar',
  },
  'admin.categoryMissing': {
    zh: '角色分类 {code} 不存在',
    en: 'There is no role category {code}',
    es: 'No existe la categoría de rol {code}',
  },
  'admin.stale': {
    zh: '该记录已被他人修改（当前版本 {current}），请刷新后重试',
    en: 'Someone else changed this record (current version {current}); reload and try again',
    es: 'Otra persona cambió este registro (versión actual {current}); vuelva a cargarlo e inténtelo de nuevo',
  },
  'admin.nothingToChange': {
    zh: '没有需要保存的修改',
    en: 'Nothing to change',
    es: 'No hay nada que cambiar',
  },
  'admin.menuParentMissing': {
    zh: '上级菜单不存在',
    en: 'The parent menu does not exist',
    es: 'El menú superior no existe',
  },
  'admin.menuTooDeep': {
    zh: '菜单只有两级：上级菜单必须是一级菜单，且有下级的菜单不能再挂到其他菜单下',
    en: 'Menus have two levels: the parent must be a top-level menu, and a menu with children cannot be moved under another',
    es: 'Los menús tienen dos niveles: el superior debe ser de primer nivel y un menú con hijos no puede moverse bajo otro',
  },
  'admin.menuCycle': {
    zh: '菜单不能挂在自己或自己的下级之下',
    en: 'A menu cannot be placed under itself or one of its children',
    es: 'Un menú no puede colocarse bajo sí mismo ni bajo uno de sus hijos',
  },
  'admin.menuHasChildren': {
    zh: '该菜单下还有 {count} 个子菜单，请先删除或移走它们',
    en: 'This menu still has {count} children; delete or move them first',
    es: 'Este menú aún tiene {count} hijos; elimínelos o muévalos primero',
  },
  'admin.menuElementPrefix': {
    zh: '按钮编码必须以 “{prefix}” 开头',
    en: 'Element codes must start with "{prefix}"',
    es: 'Los códigos de elemento deben empezar por «{prefix}»',
  },
  'admin.menuElementRepeated': {
    zh: '按钮编码 {code} 重复',
    en: 'The element code {code} appears more than once',
    es: 'El código de elemento {code} aparece más de una vez',
  },
  'admin.menuPathTaken': {
    zh: '同一上级下已有路径 {path}',
    en: 'Another menu under the same parent already has the path {path}',
    es: 'Otro menú bajo el mismo superior ya tiene la ruta {path}',
  },
  'admin.menuDefaultChild': {
    zh: '默认子菜单 {path} 不是该菜单的下级',
    en: 'The default child {path} is not a child of this menu',
    es: 'El hijo predeterminado {path} no es hijo de este menú',
  },
  'admin.roleInUse': {
    zh: '有 {count} 个用户拥有该角色，请先取消分配',
    en: '{count} users hold this role; take it away from them first',
    es: '{count} usuarios tienen este rol; quíteselo primero',
  },
  'admin.roleUnknownCodes': {
    zh: '菜单树中没有这些编码：{codes}',
    en: 'These codes are not in the menu tree: {codes}',
    es: 'Estos códigos no están en el árbol de menús: {codes}',
  },
  'admin.roleElementWithoutMenu': {
    zh: '按钮 {codes} 所属的菜单没有授权',
    en: 'The menus of the elements {codes} are not granted',
    es: 'Los menús de los elementos {codes} no están concedidos',
  },
  'admin.roleBeyondOwn': {
    zh: '不能授予超出自身权限的编码：{codes}',
    en: 'You cannot grant codes beyond your own permissions: {codes}',
    es: 'No puede conceder códigos que usted no tiene: {codes}',
  },
  'admin.regUsernameTaken': {
    zh: '用户名 {username} 已被其他账号使用，无法通过',
    en: 'The username {username} has since been taken; the request cannot be approved',
    es: 'El nombre de usuario {username} ya está en uso; no se puede aprobar',
  },
  'admin.regPhoneTaken': {
    zh: '手机号 {phone} 已被其他账号使用，无法通过',
    en: 'The phone number {phone} has since been taken; the request cannot be approved',
    es: 'El teléfono {phone} ya está en uso; no se puede aprobar',
  },
  'admin.regNoRole': {
    zh: '没有适合该机构类型的角色（{code}）',
    en: 'There is no role for this kind of organisation ({code})',
    es: 'No hay un rol para este tipo de organización ({code})',
  },
  'admin.orgHasPeople': {
    zh: '该机构还有 {count} 名人员，不能删除',
    en: 'The organisation still has {count} people; it cannot be deleted',
    es: 'La organización aún tiene {count} personas; no se puede eliminar',
  },
});
