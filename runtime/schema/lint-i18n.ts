/**
 * The lint's and the meta-schema's sentences in the configurer's language. The rules
 * (runtime/schema/lint/, validate.ts) write English for developers (`schemas:check`); the
 * studio's gate shows them to configurers, in zh, en or es, through this table: each entry
 * matches one English sentence and says it again with its parts (names, routes, numbers)
 * kept. A resource's name is shown with its title. A sentence no entry matches is shown
 * in English behind a framing in the configurer's language (tests/unit/studio-messages
 * checks that every sentence the bundled documents can provoke in the tests is matched).
 */
import type { ResourceDocument } from './resource/types.ts';
import { textOf, type Lang } from './texts.ts';

type Say = Record<Exclude<Lang, 'en'>, string>;

interface Entry {
  re: RegExp;
  say: Say;
}

/** The English sentences of the rules, with their parts named: `{name}` in the translations is the part of that name. */
const ENTRIES: Entry[] = [
  // --- meta-schema (validate.ts)
  { re: /^is required(?:: .*)?$/s, say: { zh: '缺少必填项', es: 'falta este dato obligatorio' } },
  { re: /^must not be empty$/, say: { zh: '不能为空', es: 'no puede estar vacío' } },
  { re: /^must be at least (?<n>\d+) characters long$/, say: { zh: '至少需要 {n} 个字符', es: 'necesita al menos {n} caracteres' } },
  { re: /^must not be an empty list$/, say: { zh: '列表不能为空', es: 'la lista no puede estar vacía' } },
  { re: /^must have at least (?<n>\d+) items$/, say: { zh: '至少需要 {n} 项', es: 'necesita al menos {n} elementos' } },
  { re: /^is not a property allowed here$/, say: { zh: '这里不允许此属性', es: 'esta propiedad no se admite aquí' } },
  { re: /^is (?<value>.+); expected one of (?<allowed>.+)$/s, say: { zh: '值为 {value}，应为以下之一：{allowed}', es: 'vale {value}; se espera uno de: {allowed}' } },
  { re: /^is (?<value>.+); expected (?<type>string|number|integer|boolean|object|array|null)(?: or .+)?$/s, say: { zh: '值为 {value}，类型应为 {type}', es: 'vale {value}; se espera el tipo {type}' } },
  { re: /^is (?<value>.+); expected (?<allowed>.+)$/s, say: { zh: '值为 {value}，应为 {allowed}', es: 'vale {value}; se espera {allowed}' } },
  { re: /^(?<value>.+) does not (?:fit|match)(?:: | ).*$/s, say: { zh: '{value} 的格式不符合要求', es: '{value} no tiene el formato pedido' } },
  { re: /^(?<value>.+) is none of: .*$/s, say: { zh: '{value} 不是允许的写法之一', es: '{value} no es ninguna de las formas admitidas' } },
  { re: /^matches none of the allowed forms$/, say: { zh: '不是允许的写法之一', es: 'no es ninguna de las formas admitidas' } },
  { re: /^must be a string naming the kind$/, say: { zh: '必须是表示类型的字符串', es: 'debe ser un texto que nombre el tipo' } },
  // ajv's own words, for the keywords validate.ts does not rephrase
  { re: /^must be (?<op><=|>=|<|>) (?<n>-?[\d.]+)$/, say: { zh: '必须 {op} {n}', es: 'debe ser {op} {n}' } },
  { re: /^must NOT have more than (?<n>\d+) characters$/, say: { zh: '不能超过 {n} 个字符', es: 'no puede tener más de {n} caracteres' } },
  { re: /^must NOT have more than (?<n>\d+) items$/, say: { zh: '不能超过 {n} 项', es: 'no puede tener más de {n} elementos' } },
  { re: /^must NOT have fewer than (?<n>\d+) (?:characters|items)$/, say: { zh: '不能少于 {n}', es: 'no puede tener menos de {n}' } },
  { re: /^must NOT have duplicate items.*$/s, say: { zh: '不能有重复项', es: 'no puede tener elementos repetidos' } },
  { re: /^must match format "(?<format>[^"]+)"$/, say: { zh: '必须符合格式 {format}', es: 'debe tener el formato {format}' } },
  { re: /^must be multiple of (?<n>[\d.]+)$/, say: { zh: '必须是 {n} 的倍数', es: 'debe ser múltiplo de {n}' } },
  { re: /^must be equal to one of the allowed values$/, say: { zh: '必须是允许的值之一', es: 'debe ser uno de los valores permitidos' } },
  { re: /^is not allowed here$/, say: { zh: '这里不允许', es: 'no se admite aquí' } },
  { re: /^a screen document is a JSON object$/, say: { zh: '页面文档必须是 JSON 对象', es: 'un documento de pantalla es un objeto JSON' } },
  { re: /^must be an integer format number$/, say: { zh: '格式版本必须是整数', es: 'la versión de formato debe ser un entero' } },
  { re: /^format (?<from>\d+) is newer than this console's format (?<to>\d+)$/, say: { zh: '格式 {from} 比本控制台的格式 {to} 更新', es: 'el formato {from} es más nuevo que el de esta consola ({to})' } },
  { re: /^format (?<from>\S+) is not a known screen format$/, say: { zh: '格式 {from} 不是已知的页面格式', es: 'el formato {from} no es un formato de pantalla conocido' } },
  // --- fields and resources
  { re: /^"(?<field>[^"]+)" is not a field of resource "(?<resource>[^"]+)"(?: \(.*\))?$/s, say: { zh: '「{field}」不是资源{resource}的字段', es: '«{field}» no es un campo del recurso {resource}' } },
  { re: /^"(?<field>[^"]+)" is not a property of resource "(?<resource>[^"]+)"'s record$/, say: { zh: '「{field}」不是资源{resource}记录中的属性', es: '«{field}» no es una propiedad del registro del recurso {resource}' } },
  { re: /^"(?<field>[^"]+)" is not a property of the form's record(?:, so the save could not carry it)?$/, say: { zh: '「{field}」不是表单记录中的属性', es: '«{field}» no es una propiedad del registro del formulario' } },
  { re: /^"(?<field>[^"]+)" appears twice on the form$/, say: { zh: '「{field}」在表单中出现了两次', es: '«{field}» aparece dos veces en el formulario' } },
  { re: /^"(?<field>[^"]+)" is not sortable on resource "(?<resource>[^"]+)"(?: \(sortable: (?<list>.*)\))?$/s, say: { zh: '资源{resource}不能按「{field}」排序（可排序：{list}）', es: 'el recurso {resource} no ordena por «{field}» (ordenables: {list})' } },
  { re: /^"(?<field>[^"]+)" is not searchable on resource "(?<resource>[^"]+)"(?: \(searchable: (?<list>.*)\))?$/s, say: { zh: '资源{resource}不能按「{field}」筛选（可筛选：{list}）', es: 'el recurso {resource} no filtra por «{field}» (filtrables: {list})' } },
  { re: /^resource "(?<resource>[^"]+)" filters "(?<field>[^"]+)" with (?<op>\S+), not (?<not>\S+)$/, say: { zh: '资源{resource}对「{field}」的筛选方式是 {op}，不是 {not}', es: 'el recurso {resource} filtra «{field}» con {op}, no con {not}' } },
  { re: /^condition reads "(?<field>[^"]+)", which is not a field of resource "(?<resource>[^"]+)"$/, say: { zh: '条件读取的「{field}」不是资源{resource}的字段', es: 'la condición lee «{field}», que no es un campo del recurso {resource}' } },
  { re: /^names "(?<resource>[^"]+)", which is no resource document$/, say: { zh: '资源{resource}不存在', es: 'el recurso {resource} no existe' } },
  { re: /^names "(?<resource>[^"]+)", whose resource document is invalid \(see its problems\)$/, say: { zh: '资源{resource}的文档无效（请看它的问题）', es: 'el documento del recurso {resource} no es válido (vea sus problemas)' } },
  { re: /^"(?<field>[^"]+)" is required: a user without the codes could not send the form$/, say: { zh: '「{field}」是必填项：没有这些权限码的用户将无法提交表单', es: '«{field}» es obligatorio: un usuario sin esos códigos no podría enviar el formulario' } },
  { re: /^required property "(?<field>[^"]+)" of (?:resource "(?<resource>[^"]+)"|the form's record) is not on the form, so adding a record cannot succeed$/, say: { zh: '必填属性「{field}」不在表单上，新增记录将无法成功', es: 'la propiedad obligatoria «{field}» no está en el formulario: no se podrá añadir un registro' } },
  { re: /^spans (?<n>\d+) columns; the section has (?<m>\d+)$/, say: { zh: '占 {n} 列，但分区只有 {m} 列', es: 'ocupa {n} columnas; la sección tiene {m}' } },
  { re: /^\{(?<field>[^}]+)\} is not a field of the record$/, say: { zh: '{{field}} 不是记录的字段', es: '{{field}} no es un campo del registro' } },
  { re: /^"(?<field>[^"]+)" is no field a file may fill in resource "(?<resource>[^"]+)" \(importable: (?<list>.*)\)$/s, say: { zh: '资源{resource}的导入文件不能填写「{field}」（可导入：{list}）', es: 'un archivo no puede rellenar «{field}» en el recurso {resource} (importables: {list})' } },
  { re: /^"(?<transition>[^"]+)" is no transition of resource "(?<resource>[^"]+)".*$/s, say: { zh: '「{transition}」不是资源{resource}的状态变更', es: '«{transition}» no es una transición del recurso {resource}' } },
  { re: /^resource "(?<resource>[^"]+)" must offer an eq filter on "(?<field>[^"]+)" to list the related records$/, say: { zh: '资源{resource}必须能按「{field}」等值筛选，才能列出关联记录', es: 'el recurso {resource} debe filtrar «{field}» por igualdad para listar los registros relacionados' } },
  { re: /^resource "(?<resource>[^"]+)" serves no create, so nothing can be imported into it$/, say: { zh: '资源{resource}不支持新增，无法导入', es: 'el recurso {resource} no admite altas: no se puede importar' } },
  { re: /^resource "(?<resource>[^"]+)"'s page query is always paged$/, say: { zh: '资源{resource}的列表查询总是分页的', es: 'la consulta del recurso {resource} siempre va paginada' } },
  { re: /^the resource engine serves at most (?<n>\d+) rows a page$/, say: { zh: '每页最多 {n} 行', es: 'como mucho {n} filas por página' } },
  { re: /^render (?<render>\S+) needs options, dict or optionsFrom, or a record property with enum and x-enumTitles$/, say: { zh: '显示方式 {render} 需要选项（options、dict 或 optionsFrom）', es: 'la vista {render} necesita opciones (options, dict u optionsFrom)' } },
  { re: /^a checkboxTree holds a list; "(?<field>[^"]+)" is a (?<type>\S+)$/, say: { zh: '勾选树保存的是列表；「{field}」的类型是 {type}', es: 'un árbol de casillas guarda una lista; «{field}» es de tipo {type}' } },
  { re: /^"(?<field>[^"]+)" is not a field of this form \(add it, e\.g\. with widget hidden\)$/, say: { zh: '「{field}」不是此表单的字段（可以用 hidden 控件加上）', es: '«{field}» no es un campo de este formulario (añádalo, p. ej. con el widget hidden)' } },
  { re: /^(?:authority|authorities) (?<codes>.+) (?:does|do) not grant resource "(?<resource>[^"]+)" \(granted by (?<list>.*)\), so its requests would be refused(?<rest>.*)$/s, say: { zh: '权限 {codes} 不能访问资源{resource}（可访问的权限：{list}），请求会被拒绝', es: 'la autoridad {codes} no da acceso al recurso {resource} (lo dan: {list}); sus peticiones serían rechazadas' } },
  // --- menus, codes, widgets
  { re: /^"(?<code>[^"]+)" is not a menu code of the menus document$/, say: { zh: '「{code}」不是菜单中的菜单编码', es: '«{code}» no es un código de menú del documento de menús' } },
  { re: /^"(?<code>[^"]+)" is not an element code of the menus document(?: \(for authority (?<auth>\S+)\))?$/, say: { zh: '「{code}」不是菜单中的按钮权限码', es: '«{code}» no es un código de elemento del documento de menús' } },
  { re: /^"(?<code>[^"]+)" is no menu or element code of the menus document$/, say: { zh: '「{code}」不是菜单中的菜单编码或按钮权限码', es: '«{code}» no es un código de menú ni de elemento' } },
  { re: /^no menus document is loaded, so the (?:authority key|element code) cannot be checked$/, say: { zh: '没有加载菜单文档，无法检查权限', es: 'no hay documento de menús: no se puede comprobar el código' } },
  { re: /^"(?<widget>[^"]+)" is not a registered widget \(registered: (?<list>.*)\)$/s, say: { zh: '「{widget}」不是已注册的组件（已注册：{list}）', es: '«{widget}» no es un widget registrado (registrados: {list})' } },
  // --- routes, screens, navigation
  { re: /^names "(?<screen>[^"]+)", which is no screen$/, say: { zh: '页面「{screen}」不存在', es: 'la pantalla «{screen}» no existe' } },
  { re: /^"(?<screen>[^"]+)" contains this page again \(a cycle\)$/, say: { zh: '「{screen}」又包含了本页面（循环）', es: '«{screen}» vuelve a contener esta página (un ciclo)' } },
  { re: /^"(?<screen>[^"]+)" is a (?<kind>\S+) screen, not a form$/, say: { zh: '「{screen}」是 {kind} 页面，不是表单', es: '«{screen}» es una pantalla {kind}, no un formulario' } },
  { re: /^"(?<route>[^"]+)" is no route of any screen(?: \(resolved from (?<host>\S+)\))?$/, say: { zh: '「{route}」不是任何页面的路由', es: '«{route}» no es la ruta de ninguna pantalla' } },
  { re: /^"(?<route>[^"]+)" is no route of any section$/, say: { zh: '「{route}」不是任何分区的路由', es: '«{route}» no es una ruta de ninguna sección' } },
  { re: /^"(?<route>[^"]+)" has no parameter :(?<p>\S+)$/, say: { zh: '「{route}」没有参数 :{p}', es: '«{route}» no tiene el parámetro :{p}' } },
  { re: /^has no value for :(?<p>\S+) of "(?<route>[^"]+)"$/, say: { zh: '没有给「{route}」的参数 :{p} 赋值', es: 'falta el valor de :{p} de «{route}»' } },
  { re: /^has no value for :(?<p>\S+) of (?<method>[A-Z]+) (?<path>\S+)$/, say: { zh: '没有给 {method} {path} 的参数 :{p} 赋值', es: 'falta el valor de :{p} de {method} {path}' } },
  { re: /^(?<method>[A-Z]+) (?<path>\S+) has no parameter :(?<p>\S+)$/, say: { zh: '{method} {path} 没有参数 :{p}', es: '{method} {path} no tiene el parámetro :{p}' } },
  { re: /^(?<method>[A-Z]+) (?<path>\S+) is not served by the server \(not in its OpenAPI document\)$/, say: { zh: '服务器不提供 {method} {path} 接口', es: 'el servidor no sirve {method} {path}' } },
  { re: /^(?<method>[A-Z]+) (?<path>\S+) is served by no resource .*$/s, say: { zh: '没有资源提供 {method} {path} 接口', es: 'ningún recurso sirve {method} {path}' } },
  { re: /^operation "(?<op>[^"]+)" needs a resource: the screen has none, so name one$/, say: { zh: '操作「{op}」需要资源：页面没有资源，请指定一个', es: 'la operación «{op}» necesita un recurso: la pantalla no tiene, nombre uno' } },
  { re: /^"(?<ref>[^"]+)" reads (?<root>\S+), which is not available here \(available: (?<list>.*)\)$/, say: { zh: '「{ref}」读取的 {root} 在这里不可用（可用：{list}）', es: '«{ref}» lee {root}, que aquí no está disponible (disponibles: {list})' } },
  { re: /^"(?<ref>[^"]+)": ":(?<p>[^"]+)" is not a parameter of every route of this screen$/, say: { zh: '「{ref}」：:{p} 不是本页面每个路由都有的参数', es: '«{ref}»: :{p} no es un parámetro de todas las rutas de esta pantalla' } },
  { re: /^a document's route is absolute: "(?<route>[^"]+)"$/, say: { zh: '文档的路由必须是绝对路径：「{route}」', es: 'la ruta de un documento es absoluta: «{route}»' } },
  { re: /^mode (?<mode>\S+) needs params\.(?<p>\S+) \(the form's id parameter\)$/, say: { zh: '模式 {mode} 需要 params.{p}（表单的记录 id 参数）', es: 'el modo {mode} necesita params.{p} (el parámetro de id del formulario)' } },
  { re: /^has no :(?<p>\S+) \(the record id\)$/, say: { zh: '缺少 :{p}（记录 id）', es: 'no tiene :{p} (el id del registro)' } },
  { re: /^has :(?<m>\S+) but no :(?<p>\S+): edit and show need the record id$/, say: { zh: '有 :{m} 但没有 :{p}：编辑和查看需要记录 id', es: 'tiene :{m} pero no :{p}: editar y ver necesitan el id del registro' } },
  { re: /^has no :(?<p>\S+), but the default mode (?<mode>\S+) needs the record id$/, say: { zh: '缺少 :{p}，但默认模式 {mode} 需要记录 id', es: 'no tiene :{p}, pero el modo por defecto {mode} necesita el id del registro' } },
  { re: /^names a mode, but the route has :(?<m>\S+), which decides it$/, say: { zh: '指定了模式，但路由中的 :{m} 已决定模式', es: 'nombra un modo, pero la ruta tiene :{m}, que lo decide' } },
  { re: /^opens in (?<mode>\S+), which needs :(?<p>\S+) in the route$/, say: { zh: '以 {mode} 模式打开需要路由中有 :{p}', es: 'abre en {mode}, que necesita :{p} en la ruta' } },
  { re: /^only a form's route opens in a mode; this screen is a (?<kind>\S+)$/, say: { zh: '只有表单的路由才有模式；本页面是 {kind}', es: 'solo la ruta de un formulario abre en un modo; esta pantalla es {kind}' } },
  { re: /^"(?<route>[^"]+)" is not a public path of the access rules .*$/s, say: { zh: '「{route}」不是公开路径，未登录的访客会被带到登录页', es: '«{route}» no es una ruta pública: los visitantes sin sesión irían al inicio de sesión' } },
  { re: /^"(?<route>[^"]+)" is already the route of (?<file>\S+) .*$/s, say: { zh: '路由「{route}」已被 {file} 使用', es: 'la ruta «{route}» ya es de {file}' } },
  { re: /^"(?<id>[^"]+)" is also the id of (?<file>\S+)$/, say: { zh: 'id「{id}」已被 {file} 使用', es: 'la id «{id}» ya la usa {file}' } },
  // --- actions and forms
  { re: /^export acts on the current query: put it in the toolbar$/, say: { zh: '导出作用于当前查询：请放在工具栏', es: 'exportar actúa sobre la consulta actual: póngalo en la barra' } },
  { re: /^import adds records to a table: put it in the toolbar$/, say: { zh: '导入会向表格添加记录：请放在工具栏', es: 'importar añade registros a una tabla: póngalo en la barra' } },
  { re: /^a transition acts on one record: .*$/s, say: { zh: '状态变更作用于单条记录：请放在行操作或表单、详情的操作中', es: 'una transición actúa sobre un registro: póngala en las acciones de fila o de un formulario o detalle' } },
  { re: /^names no resource: the (?:table|screen) has none$/, say: { zh: '没有指定资源，页面也没有资源', es: 'no nombra recurso y la pantalla no tiene' } },
  { re: /^"(?<field>[^"]+)" is also a property of the body; the prompt would overwrite it$/, say: { zh: '「{field}」也是请求体的属性，输入框会覆盖它', es: '«{field}» también es una propiedad del cuerpo; la pregunta lo sobrescribiría' } },
  { re: /^is not a valid regular expression$/, say: { zh: '不是有效的正则表达式', es: 'no es una expresión regular válida' } },
  { re: /^batch actions need row selection$/, say: { zh: '批量操作需要能选择行', es: 'las acciones por lotes necesitan selección de filas' } },
  { re: /^give either children .* not both$/s, say: { zh: 'children 和 parentField 只能二选一', es: 'dé children o parentField, no ambos' } },
  { re: /^only a checkboxTree field reads a tree$/, say: { zh: '只有勾选树字段才读取树', es: 'solo un campo checkboxTree lee un árbol' } },
  { re: /^leaves and leafField go together$/, say: { zh: 'leaves 和 leafField 必须同时给出', es: 'leaves y leafField van juntos' } },
  { re: /^a form without a resource needs endpoints\.create or endpoints\.update$/, say: { zh: '没有资源的表单需要 endpoints.create 或 endpoints.update', es: 'un formulario sin recurso necesita endpoints.create o endpoints.update' } },
  { re: /^a form without a resource that edits or shows records needs endpoints\.load$/, say: { zh: '没有资源、但要编辑或查看记录的表单需要 endpoints.load', es: 'un formulario sin recurso que edita o muestra registros necesita endpoints.load' } },
  { re: /^a preview sends the form's values as a body; (?<method>\S+) takes none$/, say: { zh: '预览会把表单的值作为请求体发送，{method} 不接受请求体', es: 'una vista previa envía los valores como cuerpo; {method} no lleva cuerpo' } },
  { re: /^is cleared when a field of requires changes, so it cannot be one of them$/, say: { zh: 'requires 中的字段变化时会被清空，所以不能是其中之一', es: 'se vacía al cambiar un campo de requires, así que no puede ser uno de ellos' } },
  { re: /^(?<langs>.+) still copied from another language \(untranslated\)$/, say: { zh: '{langs} 仍是从其他语言复制的（未翻译）', es: '{langs} sigue copiado de otro idioma (sin traducir)' } },
];

const FRAME: Say = { zh: '规则检查（英文原文）：{text}', es: 'regla (texto original en inglés): {text}' };

const quote = (lang: Lang, s: string) => (lang === 'zh' ? `「${s}」` : `«${s}»`);

/**
 * One English sentence of the lint or the meta-schema in `lang`. `resources` names a
 * resource by its title as well. A sentence no entry matches is kept behind a framing.
 */
export function localizeLint(message: string, lang: Lang, resources: (name: string) => ResourceDocument | undefined = () => undefined): string {
  // Suffixes added by a rule around another sentence (checkGrants' warnings, a migrated document).
  const warn = /^(?<inner>.+); users holding only this screen's authority (?<what>get no options|see the list refused)$/s.exec(message);
  if (warn?.groups) {
    const tail = warn.groups.what.startsWith('get')
      ? { en: "; users holding only this screen's authority get no options", zh: '；只有本页面权限的用户看不到选项', es: '; quien solo tenga la autoridad de esta pantalla no verá opciones' }
      : { en: "; users holding only this screen's authority see the list refused", zh: '；只有本页面权限的用户会看到列表被拒绝', es: '; quien solo tenga la autoridad de esta pantalla verá la lista rechazada' };
    return `${localizeLint(warn.groups.inner, lang, resources)}${tail[lang]}`;
  }
  if (lang === 'en') return message;
  const migrated = /^(?<inner>.+) \(after migration from format (?<from>\d+); the pointer is into the migrated document\)$/s.exec(message);
  if (migrated?.groups) {
    const tail = { zh: `（从格式 ${migrated.groups.from} 迁移后；位置指向迁移后的文档）`, es: ` (tras migrar del formato ${migrated.groups.from}; la posición es del documento migrado)` };
    return `${localizeLint(migrated.groups.inner, lang, resources)}${tail[lang]}`;
  }
  for (const { re, say } of ENTRIES) {
    const m = re.exec(message);
    if (!m) continue;
    const groups = m.groups ?? {};
    return say[lang].replace(/\{(\w+)\}/g, (_, k: string) => {
      const v = groups[k] ?? '';
      if (k === 'resource' && v) {
        const title = textOf(resources(v)?.title, lang);
        if (!title || title === v) return quote(lang, v);
        return lang === 'zh' ? `${quote(lang, title)}（${v}）` : `${quote(lang, title)} (${v})`;
      }
      return v;
    });
  }
  return FRAME[lang].replace('{text}', message);
}

/** Whether an entry says `message` in the configurer's language (the tests' check that the table covers the rules). */
export function lintSentenceKnown(message: string): boolean {
  const inner = message.replace(/; users holding only this screen's authority (get no options|see the list refused)$/, '').replace(/ \(after migration from format \d+; the pointer is into the migrated document\)$/, '');
  return ENTRIES.some((e) => e.re.test(inner));
}
