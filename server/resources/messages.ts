import { defineMessages } from '../i18n/catalog.ts';

export const msg = defineMessages({
  'resource.invalid': {
    zh: '输入不合法：{detail}',
    en: 'Invalid input: {detail}',
    es: 'Entrada no válida: {detail}',
  },
  'resource.stale': {
    zh: '该记录已被他人修改，请刷新后重试',
    en: 'This record was modified by someone else; reload it and try again',
    es: 'Otra persona modificó este registro; vuelva a cargarlo e inténtelo de nuevo',
  },
  'resource.farmRequired': {
    zh: '请选择所属农场',
    en: 'Choose the farm the record belongs to',
    es: 'Elija la granja a la que pertenece el registro',
  },
  'resource.farmOutOfScope': {
    zh: '农场不存在或不在您的管理范围内',
    en: 'The farm does not exist or is outside your scope',
    es: 'La granja no existe o está fuera de su ámbito',
  },
  'resource.blocRequired': {
    zh: '请选择所属集团',
    en: 'Choose the group of farms the record belongs to',
    es: 'Elija el grupo de granjas al que pertenece el registro',
  },
  'resource.blocOutOfScope': {
    zh: '集团不存在或不在您的管理范围内',
    en: 'The group of farms does not exist or is outside your scope',
    es: 'El grupo de granjas no existe o está fuera de su ámbito',
  },
  'resource.referenceMissing': {
    zh: '引用的{target}记录不存在',
    en: 'The referenced {target} record does not exist',
    es: 'El registro de {target} referenciado no existe',
  },
  'resource.stillReferenced': {
    zh: '无法删除：仍有 {count} 条{source}记录引用它',
    en: 'Cannot delete: {count} {source} record(s) still refer to it',
    es: 'No se puede eliminar: {count} registro(s) de {source} todavía lo referencian',
  },
  'resource.badSort': {
    zh: '排序参数不合法：{detail}',
    en: 'Invalid sort: {detail}',
    es: 'Ordenación no válida: {detail}',
  },
  'resource.rangeReversed': {
    zh: '范围的起点大于终点',
    en: 'The start of the range is after its end',
    es: 'El inicio del intervalo es posterior a su final',
  },
  'resource.noOwner': {
    zh: '您的账号不属于任何农场或集团，无法创建此类记录',
    en: 'Your account belongs to no farm or group, so it cannot create such records',
    es: 'Su cuenta no pertenece a ninguna granja ni grupo, así que no puede crear estos registros',
  },
  'resource.transitionRefused': {
    zh: '该记录当前为「{state}」，不能执行「{action}」',
    en: 'This record is «{state}», so «{action}» cannot be done now',
    es: 'Este registro está «{state}», así que ahora no se puede «{action}»',
  },
  'resource.stateOwned': {
    zh: '「{field}」只能通过操作按钮（{actions}）更改',
    en: '«{field}» changes only through its actions ({actions})',
    es: '«{field}» solo cambia mediante sus acciones ({actions})',
  },
  'resource.reasonRequired': {
    zh: '请填写「{action}」的原因',
    en: 'Give the reason for «{action}»',
    es: 'Indique el motivo de «{action}»',
  },
  'import.xls': {
    zh: '不支持旧版 Excel（.xls）文件，请另存为 .xlsx 或 CSV 后再导入',
    en: 'Old Excel files (.xls) are not read: save the file as .xlsx or CSV and import it again',
    es: 'No se leen archivos de Excel antiguos (.xls): guárdelo como .xlsx o CSV e impórtelo de nuevo',
  },
  'import.unreadable': {
    zh: '无法读取该 Excel 文件，请确认文件未损坏且为 .xlsx 格式',
    en: 'The Excel file cannot be read: check that it is an undamaged .xlsx file',
    es: 'No se puede leer el archivo de Excel: compruebe que es un .xlsx sin daños',
  },
  'import.encoding': {
    zh: 'CSV 文件不是 UTF-8 编码，请在保存时选择「CSV UTF-8」',
    en: 'The CSV file is not UTF-8: save it as «CSV UTF-8»',
    es: 'El archivo CSV no está en UTF-8: guárdelo como «CSV UTF-8»',
  },
  'import.csv': {
    zh: 'CSV 文件格式有误：第 {line} 行的引号没有正确闭合',
    en: 'The CSV file is malformed: the quotes opened on line {line} are not closed properly',
    es: 'El archivo CSV está mal formado: las comillas abiertas en la línea {line} no se cierran bien',
  },
  'import.empty': {
    zh: '文件中没有数据',
    en: 'The file holds no data',
    es: 'El archivo no contiene datos',
  },
  'import.noRows': {
    zh: '文件中只有表头，没有要导入的数据行',
    en: 'The file has headers but no rows to import',
    es: 'El archivo tiene encabezados pero ninguna fila que importar',
  },
  'import.noHeaders': {
    zh: '第一行没有可识别的列名，请使用导入模板（可识别：{fields}）',
    en: 'The first row names no known column: use the import template (known: {fields})',
    es: 'La primera fila no nombra ninguna columna conocida: use la plantilla de importación (conocidas: {fields})',
  },
  'import.duplicateHeader': {
    zh: '列「{first}」和「{second}」是同一个字段，请只保留一列',
    en: 'The columns «{first}» and «{second}» are the same field: keep one of them',
    es: 'Las columnas «{first}» y «{second}» son el mismo campo: conserve solo una',
  },
  'import.tooLarge': {
    zh: '文件过大（上限 {limit} MB）',
    en: 'The file is too large (limit {limit} MB)',
    es: 'El archivo es demasiado grande (límite {limit} MB)',
  },
  'import.tooManyRows': {
    zh: '文件有 {count} 行数据，一次最多导入 {limit} 行',
    en: 'The file has {count} rows; at most {limit} are imported at once',
    es: 'El archivo tiene {count} filas; se importan como máximo {limit} a la vez',
  },
  'import.rowLimit': {
    zh: '文件的数据超过 {limit} 行，一次最多导入 {limit} 行：超出的部分没有读取',
    en: 'The file has more than {limit} rows; at most {limit} are imported at once, and the rest was not read',
    es: 'El archivo tiene más de {limit} filas; se importan como máximo {limit} a la vez y el resto no se ha leído',
  },
  'import.zipEntries': {
    zh: '该 Excel 文件包含的部件过多（上限 {limit} 个），不像是正常的表格文件，未读取',
    en: 'The Excel file holds too many parts (limit {limit}) for a spreadsheet, so it was not read',
    es: 'El archivo de Excel contiene demasiadas partes (límite {limit}) para una hoja de cálculo, así que no se ha leído',
  },
  'import.zipSize': {
    zh: '该 Excel 文件解压后超过 {limit} MB，已停止读取',
    en: 'The Excel file unpacks to more than {limit} MB, so reading it was stopped',
    es: 'El archivo de Excel ocupa más de {limit} MB al descomprimirlo, así que se ha dejado de leer',
  },
  'import.zipRatio': {
    zh: '该 Excel 文件的压缩比异常（超过 {limit} 倍），可能是恶意文件，已停止读取',
    en: 'The Excel file is compressed more than {limit} times over, as a hostile file would be, so reading it was stopped',
    es: 'El archivo de Excel está comprimido más de {limit} veces, como lo estaría un archivo hostil, así que se ha dejado de leer',
  },
  'import.sharedStrings': {
    zh: '该 Excel 文件中的文本超过 {limit} MB，已停止读取',
    en: 'The Excel file’s text passes {limit} MB, so reading it was stopped',
    es: 'El texto del archivo de Excel supera los {limit} MB, así que se ha dejado de leer',
  },
  'import.readTimeout': {
    zh: '读取文件超过 {seconds} 秒，已停止，请拆分文件后再导入',
    en: 'Reading the file took more than {seconds} seconds and was stopped: split the file and import the parts',
    es: 'La lectura del archivo superó los {seconds} segundos y se detuvo: divida el archivo e importe las partes',
  },
  'import.busy': {
    zh: '服务器正在处理 {limit} 个导入，请稍后再试',
    en: 'The server is already running {limit} imports: try again in a moment',
    es: 'El servidor ya está ejecutando {limit} importaciones: inténtelo de nuevo en un momento',
  },
  'import.stopped': {
    zh: '写入时第 {rows} 行被拒绝，导入已停止：此前的 {kept} 条记录已导入，其余未导入',
    en: 'Row {rows} was refused while writing and the import stopped there: the {kept} records before it were imported, the rest were not',
    es: 'La fila {rows} se rechazó al escribir y la importación se detuvo ahí: se importaron los {kept} registros anteriores, el resto no',
  },
  'import.notBase64': {
    zh: '文件内容不是有效的 Base64 编码',
    en: 'The file content is not valid Base64',
    es: 'El contenido del archivo no es Base64 válido',
  },
  'import.nameMissing': {
    zh: '找不到名为「{name}」的{target}',
    en: 'No {target} named «{name}»',
    es: 'No hay ningún registro de {target} llamado «{name}»',
  },
  'import.nameAmbiguous': {
    zh: '有多条名为「{name}」的{target}，请填写编号',
    en: 'Several {target} records are named «{name}»: give its id',
    es: 'Varios registros de {target} se llaman «{name}»: indique su id',
  },
  'import.rowsInvalid': {
    zh: '有 {count} 行不合格，未导入任何记录：第 {rows} 行',
    en: '{count} row(s) are invalid, so nothing was imported: row(s) {rows}',
    es: '{count} fila(s) no son válidas, así que no se importó nada: fila(s) {rows}',
  },
  'import.rowError': {
    zh: '第 {row} 行：{message}',
    en: 'Row {row}: {message}',
    es: 'Fila {row}: {message}',
  },
  'import.done': {
    zh: '已导入 {count} 条记录',
    en: '{count} record(s) imported',
    es: '{count} registro(s) importados',
  },
  'import.checked': {
    zh: '已检查 {total} 行：{valid} 行可导入，{invalid} 行有错误',
    en: '{total} row(s) checked: {valid} can be imported, {invalid} have errors',
    es: '{total} fila(s) revisadas: {valid} se pueden importar, {invalid} tienen errores',
  },
  'import.checkedUpdates': {
    zh: '已检查 {total} 行：{valid} 行可导入（其中 {updated} 行更新已有记录），{invalid} 行有错误',
    en: '{total} row(s) checked: {valid} can be imported ({updated} of them update existing records), {invalid} have errors',
    es: '{total} fila(s) revisadas: {valid} se pueden importar ({updated} actualizan registros existentes), {invalid} tienen errores',
  },
  'import.doneUpdates': {
    zh: '已导入 {count} 条记录：新增 {created} 条，更新 {updated} 条',
    en: '{count} record(s) imported: {created} added, {updated} updated',
    es: '{count} registro(s) importados: {created} nuevos, {updated} actualizados',
  },
  'import.noKey': {
    zh: '这个列表不能按编码更新已有记录',
    en: 'This list cannot update existing records by a code',
    es: 'Esta lista no puede actualizar registros existentes por un código',
  },
});
