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
});
