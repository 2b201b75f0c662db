/**
 * The studio's own words in zh, en and es (the widget keeps its texts beside it, as the
 * planting timeline does; the schema texts of its screens are in schemas/screens/studio/).
 */
import type { Lang } from '../../runtime/schema/texts.ts';

const T = {
  loading: { zh: '加载中…', en: 'Loading…', es: 'Cargando…' },
  loadFailed: { zh: '读取失败', en: 'Could not load', es: 'No se pudo cargar' },
  unknownView: { zh: '未知的工作室视图', en: 'Unknown studio view', es: 'Vista del estudio desconocida' },
  search: { zh: '搜索 id、标题、路由或文件', en: 'Search id, title, route or file', es: 'Buscar id, título, ruta o archivo' },
  kind: { zh: '类型', en: 'Kind', es: 'Tipo' },
  section: { zh: '菜单分区', en: 'Menu section', es: 'Sección del menú' },
  status: { zh: '状态', en: 'Status', es: 'Estado' },
  file: { zh: '文件', en: 'File', es: 'Archivo' },
  title: { zh: '标题', en: 'Title', es: 'Título' },
  routes: { zh: '路由', en: 'Routes', es: 'Rutas' },
  all: { zh: '全部', en: 'All', es: 'Todos' },
  screen: { zh: '页面', en: 'Screen', es: 'Pantalla' },
  resource: { zh: '资源', en: 'Resource', es: 'Recurso' },
  menus: { zh: '菜单', en: 'Menus', es: 'Menús' },
  bundled: { zh: '随版本发布', en: 'Bundled', es: 'Incluido' },
  published: { zh: '已发布 第 {n} 版', en: 'Published revision {n}', es: 'Publicado, revisión {n}' },
  newDoc: { zh: '新建', en: 'New', es: 'Nuevo' },
  draft: { zh: '草稿', en: 'Draft', es: 'Borrador' },
  edit: { zh: '编辑', en: 'Edit', es: 'Editar' },
  translate: { zh: '翻译', en: 'Translate', es: 'Traducir' },
  apiOffline: {
    zh: '工作室服务暂不可用，显示的是随版本发布的文档',
    en: 'The studio service is not available: showing the bundled documents',
    es: 'El servicio del estudio no está disponible: se muestran los documentos incluidos',
  },
  // Editor
  saveDraft: { zh: '保存草稿', en: 'Save draft', es: 'Guardar borrador' },
  discardDraft: { zh: '放弃草稿', en: 'Discard draft', es: 'Descartar borrador' },
  check: { zh: '服务器检查', en: 'Check on the server', es: 'Comprobar en el servidor' },
  publish: { zh: '发布', en: 'Publish', es: 'Publicar' },
  comment: { zh: '发布说明', en: 'Comment', es: 'Comentario' },
  commentRequired: { zh: '请填写发布说明', en: 'Say what the change is for', es: 'Indique para qué es el cambio' },
  draftSaved: { zh: '草稿已保存', en: 'Draft saved', es: 'Borrador guardado' },
  publishedAs: { zh: '已发布为第 {n} 版', en: 'Published as revision {n}', es: 'Publicado como revisión {n}' },
  refused: { zh: '发布被拒绝', en: 'Publish refused', es: 'Publicación rechazada' },
  meanwhile: {
    zh: '此文档在你编辑期间已被 {author} 发布为第 {n} 版（{comment}）。其间的修改：',
    en: '{author} published revision {n} of this document meanwhile ({comment}). What changed:',
    es: '{author} publicó mientras tanto la revisión {n} de este documento ({comment}). Cambios:',
  },
  problems: { zh: '{n} 个问题', en: '{n} problems', es: '{n} problemas' },
  noProblems: { zh: '没有问题', en: 'No problems', es: 'Sin problemas' },
  lineColumn: { zh: '第 {line} 行第 {column} 列', en: 'line {line}, column {column}', es: 'línea {line}, columna {column}' },
  checking: { zh: '检查中…', en: 'Checking…', es: 'Comprobando…' },
  validationTime: { zh: '检查用时 {ms} 毫秒', en: 'checked in {ms} ms', es: 'comprobado en {ms} ms' },
  migrated: { zh: '已从格式 {from} 迁移', en: 'migrated from format {from}', es: 'migrado desde el formato {from}' },
  // Preview
  preview: { zh: '预览', en: 'Preview', es: 'Vista previa' },
  viewAs: { zh: '以角色查看', en: 'View as', es: 'Ver como' },
  myself: { zh: '我自己', en: 'Myself', es: 'Yo' },
  previewStale: {
    zh: '草稿无效，预览保持上一次有效的版本：{why}',
    en: 'The draft is invalid; the preview keeps the last valid version: {why}',
    es: 'El borrador no es válido; la vista previa mantiene la última versión válida: {why}',
  },
  previewNeverWrites: {
    zh: '预览不会写入数据：发布后在正式页面中操作',
    en: 'A preview never writes: publish, then do this on the real screen',
    es: 'Una vista previa nunca escribe: publique y hágalo en la pantalla real',
  },
  previewNoRoute: {
    zh: '此文档没有可预览的页面',
    en: 'This document has no screen to preview',
    es: 'Este documento no tiene pantalla que previsualizar',
  },
  previewNoAuthority: {
    zh: '所选角色无权访问此页面（{code}）',
    en: 'The chosen role cannot reach this screen ({code})',
    es: 'El rol elegido no puede acceder a esta pantalla ({code})',
  },
  // Revisions and diff
  revisions: { zh: '版本', en: 'Revisions', es: 'Revisiones' },
  revision: { zh: '第 {n} 版', en: 'Revision {n}', es: 'Revisión {n}' },
  bundledRevision: { zh: '随版本发布（第 0 版）', en: 'Bundled (revision 0)', es: 'Incluido (revisión 0)' },
  compare: { zh: '比较', en: 'Compare', es: 'Comparar' },
  compareDraftWith: { zh: '草稿与所选版本的差异', en: 'The draft against the chosen revision', es: 'El borrador frente a la revisión elegida' },
  compareWith: { zh: '与', en: 'against', es: 'frente a' },
  theDraft: { zh: '当前草稿', en: 'the draft', es: 'el borrador' },
  noChanges: { zh: '没有差异', en: 'No differences', es: 'Sin diferencias' },
  rollback: { zh: '恢复此版本', en: 'Restore this revision', es: 'Restaurar esta revisión' },
  rollbackDone: { zh: '已恢复，发布为第 {n} 版', en: 'Restored as revision {n}', es: 'Restaurado como revisión {n}' },
  applyChange: { zh: '恢复此项', en: 'Restore this change', es: 'Restaurar este cambio' },
  author: { zh: '作者', en: 'Author', es: 'Autor' },
  at: { zh: '时间', en: 'When', es: 'Cuándo' },
  // Translations
  pickDocument: { zh: '选择文档', en: 'Pick a document', es: 'Elija un documento' },
  pointer: { zh: 'JSON 指针', en: 'JSON pointer', es: 'Puntero JSON' },
  missingOnly: { zh: '只看缺失', en: 'Missing only', es: 'Solo los que faltan' },
  pseudo: { zh: '伪语言预览', en: 'Pseudo-locale preview', es: 'Vista en pseudolocale' },
  pseudoHelp: {
    zh: '伪语言把每个文本加长约 40% 并加上重音字符，超出列宽的文本会被截断显示',
    en: 'The pseudo-locale makes every text about 40 % longer with accented letters: texts cut off at their width show where translations will not fit',
    es: 'La pseudolocale alarga cada texto un 40 % con letras acentuadas: los textos cortados muestran dónde no cabrán las traducciones',
  },
  truncated: { zh: '会被截断', en: 'would be cut off', es: 'quedaría cortado' },
  missingCount: { zh: '缺少 {n} 处翻译', en: '{n} translations missing', es: 'Faltan {n} traducciones' },
  openEditor: { zh: '在编辑器中打开', en: 'Open in the editor', es: 'Abrir en el editor' },
  // A new screen
  newScreen: { zh: '新建页面', en: 'New screen', es: 'Nueva pantalla' },
  create: { zh: '创建', en: 'Create', es: 'Crear' },
  kindTable: { zh: '表格', en: 'Table', es: 'Tabla' },
  kindForm: { zh: '表单', en: 'Form', es: 'Formulario' },
  kindDetail: { zh: '详情', en: 'Detail', es: 'Detalle' },
  kindDashboard: { zh: '看板', en: 'Dashboard', es: 'Panel' },
  required: { zh: '必填', en: 'Required', es: 'Obligatorio' },
  newScreenIdHelp: {
    zh: '小写字母开头，只含字母和数字（3–60 个字符）；文件名为 schemas/screens/studio/<id>.json',
    en: 'A lower-case letter first, then letters and digits (3–60 characters); the file is schemas/screens/studio/<id>.json',
    es: 'Una minúscula primero, luego letras y cifras (3–60 caracteres); el archivo es schemas/screens/studio/<id>.json',
  },
  idTaken: { zh: 'id「{id}」已被另一个页面使用', en: 'the id "{id}" is already used by another screen', es: 'la id «{id}» ya la usa otra pantalla' },
  menuCode: { zh: '菜单权限码', en: 'Menu code', es: 'Código de menú' },
  menuCodeHelp: {
    zh: '拥有此权限码的角色可以打开该页面；若需要新的菜单项，请在菜单编辑器中添加并发布',
    en: 'Roles holding this code can open the screen; a new menu entry, if needed, is added and published in the menus editor',
    es: 'Los roles con este código abren la pantalla; una entrada de menú nueva, si hace falta, se añade y publica en el editor de menús',
  },
  routeForm: { zh: '路由以 / 开头，只含字母、数字、-、_ 和 :参数', en: 'A route starts with / and holds letters, digits, -, _ and :parameters', es: 'Una ruta empieza por / y tiene letras, cifras, -, _ y :parámetros' },
  routeTaken: { zh: '路由「{route}」已被页面「{screen}」占用', en: 'the route "{route}" is already taken by the screen "{screen}"', es: 'la ruta «{route}» ya la ocupa la pantalla «{screen}»' },
  // Menus
  addMenu: { zh: '新增菜单项', en: 'Add an entry', es: 'Añadir una entrada' },
  icon: { zh: '图标', en: 'Icon', es: 'Icono' },
  sort: { zh: '排序', en: 'Order', es: 'Orden' },
  hidden: { zh: '隐藏', en: 'Hidden', es: 'Oculto' },
  moveUp: { zh: '上移', en: 'Move up', es: 'Subir' },
  moveDown: { zh: '下移', en: 'Move down', es: 'Bajar' },
  code: { zh: '编码', en: 'Code', es: 'Código' },
  // Coverage
  unusedAuthorities: { zh: '没有页面使用的权限码', en: 'Authority keys no screen uses', es: 'Claves de autoridad que ninguna pantalla usa' },
  unreachableScreens: { zh: '没有角色能访问的页面', en: 'Screens no role can reach', es: 'Pantallas que ningún rol alcanza' },
  onlyPlatform: { zh: '仅平台管理员', en: 'platform administrators only', es: 'solo administradores de la plataforma' },
  unusedElements: { zh: '没有操作使用的元素码', en: 'Element codes no action uses', es: 'Códigos de elemento que ninguna acción usa' },
  unguardedEndpoints: { zh: '页面调用但服务器未保护的接口', en: 'Endpoints shown by a screen but not guarded by the server', es: 'Endpoints que muestra una pantalla sin protección del servidor' },
  notServed: { zh: '服务器没有此接口', en: 'not served by the server', es: 'el servidor no lo sirve' },
  publicRoute: { zh: '无需登录即可调用', en: 'answers without a session', es: 'responde sin sesión' },
  none: { zh: '无', en: 'None', es: 'Ninguno' },
  coverageCounts: {
    zh: '{screens} 个页面，{authorities} 个菜单权限码，{elements} 个元素码，{roles} 个角色，{endpoints} 个直接接口',
    en: '{screens} screens, {authorities} menu codes, {elements} element codes, {roles} roles, {endpoints} literal endpoints',
    es: '{screens} pantallas, {authorities} códigos de menú, {elements} códigos de elemento, {roles} roles, {endpoints} endpoints literales',
  },
} as const satisfies Record<string, Record<Lang, string>>;

export type TextKey = keyof typeof T;
export type Say = (key: TextKey, params?: Record<string, string | number>) => string;

export function sayer(lang: Lang): Say {
  return (key, params = {}) => T[key][lang].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? ''));
}

export const STUDIO_TEXTS = T;
