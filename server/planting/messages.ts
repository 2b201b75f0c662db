import { defineMessages } from '../i18n/catalog.ts';

export const msg = defineMessages({
  'planting.timing.onTime': { zh: '按计划完成', en: 'Done as planned', es: 'Hecho según el plan' },
  'planting.timing.late': {
    zh: '晚于计划 {days} 天（计划 {endOn} 前完成）',
    en: '{days} days late (planned to end by {endOn})',
    es: '{days} días de retraso (previsto hasta {endOn})',
  },
  'planting.timing.early': {
    zh: '早于计划 {days} 天（计划 {startOn} 开始）',
    en: '{days} days early (planned to start on {startOn})',
    es: '{days} días antes de lo previsto (inicio previsto {startOn})',
  },
  'planting.timing.missing': {
    zh: '缺少记录：计划 {endOn} 前完成，已过 {days} 天',
    en: 'Missing: planned to end by {endOn}, {days} days ago, and nothing is recorded',
    es: 'Falta: debía terminar antes del {endOn}, hace {days} días, y no hay registros',
  },
  'planting.timing.pending': {
    zh: '尚未记录，计划 {startOn} 至 {endOn}',
    en: 'Not recorded yet; planned from {startOn} to {endOn}',
    es: 'Aún sin registros; previsto del {startOn} al {endOn}',
  },
  'planting.extraMaterials': { zh: '计划外用料：{names}', en: 'Materials beyond the plan: {names}', es: 'Materiales fuera del plan: {names}' },
  'planting.missingMaterials': { zh: '计划用料未使用：{names}', en: 'Planned materials not used: {names}', es: 'Materiales previstos no usados: {names}' },
  'planting.trace.task': { zh: '任务 {startOn} 至 {dueOn}', en: 'Task from {startOn} to {dueOn}', es: 'Tarea del {startOn} al {dueOn}' },
  'planting.trace.record': { zh: '作业人员 {workers}，{hours} 小时', en: 'Workers {workers}, {hours} h', es: 'Trabajadores {workers}, {hours} h' },
  'planting.itemRequired': { zh: '请选择要发布的计划条目', en: 'Choose the plan item to publish', es: 'Elija el elemento del plan que desea publicar' },
  'planting.itemMissing': {
    zh: '该计划没有序号为 {orderNumber} 的条目',
    en: 'The plan has no item number {orderNumber}',
    es: 'El plan no tiene el elemento número {orderNumber}',
  },
  'planting.beforePlanting': {
    zh: '计划日期 {date} 早于种植组的定植日期 {plantedOn}，请推迟开始日期',
    en: 'The plan date {date} is before the group was planted ({plantedOn}); choose a later start date',
    es: 'La fecha del plan {date} es anterior a la plantación del grupo ({plantedOn}); elija una fecha de inicio posterior',
  },
  'planting.itemBeforePlanting': {
    zh: '计划日期 {date} 早于种植组的定植日期 {plantedOn}，请把这项农事安排在定植当天或之后',
    en: 'The plan date {date} is before the group was planted ({plantedOn}); move this item to the planting date or later',
    es: 'La fecha del plan {date} es anterior a la plantación del grupo ({plantedOn}); mueva este elemento a la fecha de plantación o después',
  },
  'planting.beforeSeason': {
    zh: '计划日期 {date} 早于种植季开始日期 {seasonStart}',
    en: 'The plan date {date} is before the season starts ({seasonStart})',
    es: 'La fecha del plan {date} es anterior al inicio de la temporada ({seasonStart})',
  },
  'planting.afterSeason': {
    zh: '计划日期 {date} 晚于种植季结束日期 {seasonEnd}，请提前开始日期或换用更短的模板',
    en: 'The plan date {date} is after the season ends ({seasonEnd}); start earlier or use a shorter template',
    es: 'La fecha del plan {date} es posterior al fin de la temporada ({seasonEnd}); empiece antes o use una plantilla más corta',
  },
  'planting.groupClosed': {
    zh: '该种植组已关闭，不能再修改',
    en: 'This planting group is closed and can no longer be changed',
    es: 'Este grupo de cultivo está cerrado y ya no se puede modificar',
  },
  'planting.templateKind': {
    zh: '所选模板的类型与计划类型不符',
    en: 'The chosen template is not of this plan type',
    es: 'La plantilla elegida no es de este tipo de plan',
  },
  'planting.itemNotInPlan': {
    zh: '该计划条目不属于所选计划',
    en: 'This plan item does not belong to the chosen plan',
    es: 'Este elemento no pertenece al plan elegido',
  },
  'planting.planNotOfGroup': {
    zh: '该计划不属于此种植组',
    en: 'This plan does not belong to the planting group',
    es: 'Este plan no pertenece al grupo de cultivo',
  },
  'planting.assigneeNotOfFarm': {
    zh: '执行人必须是本农场的人员',
    en: 'Assignees must be people of this farm',
    es: 'Los responsables deben ser personas de esta granja',
  },
  'planting.taskNotOfFarm': {
    zh: '只能记录本农场的农事任务',
    en: 'Records can only be made on tasks of your own farm',
    es: 'Solo se pueden registrar tareas de su propia granja',
  },
  'planting.templateEmpty': {
    zh: '所选模板没有任何条目',
    en: 'The chosen template has no items',
    es: 'La plantilla elegida no tiene elementos',
  },
  'planting.adjustNotWork': {
    zh: '「{name}」不是农事作业：生育阶段和关键节点按模板推算，只能调整农事作业的日期',
    en: '“{name}” is not a work item: stages and key nodes follow the template; only work items can be moved',
    es: '«{name}» no es una labor: las fases y los hitos siguen la plantilla; solo se pueden mover las labores',
  },
  'planting.endBeforeStart': {
    zh: '「{name}」的结束日期 {endOn} 早于开始日期 {startOn}',
    en: 'The end of “{name}” ({endOn}) is before its start ({startOn})',
    es: 'El fin de «{name}» ({endOn}) es anterior a su inicio ({startOn})',
  },
  'planting.dueBeforeStart': {
    zh: '截止日期 {dueOn} 早于开始日期 {startOn}',
    en: 'The due date {dueOn} is before the start date {startOn}',
    es: 'La fecha límite {dueOn} es anterior a la fecha de inicio {startOn}',
  },
  'planting.taskExists': {
    zh: '该计划条目已发布为任务',
    en: 'This plan item has already been published as a task',
    es: 'Este elemento del plan ya se publicó como tarea',
  },
  'planting.plotNotOfFarm': {
    zh: '地块 {ids} 不属于本农场',
    en: 'The plots {ids} are not plots of this farm',
    es: 'Las parcelas {ids} no son de esta granja',
  },
  'planting.workTypeMissing': {
    zh: '农事类型 {id} 不存在，请重新选择',
    en: 'The farm-work type {id} does not exist; choose another',
    es: 'El tipo de labor {id} no existe; elija otro',
  },
  'planting.dependencySelf': {
    zh: '一项农事不能以自己为前置作业',
    en: 'A work item cannot come after itself',
    es: 'Una labor no puede ir después de sí misma',
  },
  'planting.dependencyNotWork': {
    zh: '前置关系只能连接农事作业：「{name}」不是农事作业',
    en: 'Dependencies link work items only: “{name}” is not a work item',
    es: 'Las dependencias solo unen labores: «{name}» no es una labor',
  },
  'planting.dependencyOtherPlan': {
    zh: '前置作业「{name}」属于另一个计划，请选择本计划的农事作业',
    en: 'The predecessor “{name}” belongs to another plan; choose a work item of this plan',
    es: 'La labor previa «{name}» pertenece a otro plan; elija una labor de este plan',
  },
  'planting.dependencyCycle': {
    zh: '不能形成循环：「{name}」已经（直接或间接）排在这项农事之后',
    en: 'That would make a loop: “{name}” already comes after this item (directly or through others)',
    es: 'Eso formaría un ciclo: «{name}» ya va después de esta labor (directa o indirectamente)',
  },
  'planting.dependencyTooEarly': {
    zh: '「{name}」须在前置作业「{predecessor}」结束（{endOn}）并间隔 {lagDays} 天后开始，最早 {earliest}',
    en: '“{name}” starts after its predecessor “{predecessor}” ends ({endOn}) and a lag of {lagDays} days: on {earliest} at the earliest',
    es: '«{name}» empieza cuando termina su labor previa «{predecessor}» ({endOn}) y pasan {lagDays} días de desfase: el {earliest} como pronto',
  },
  'planting.successorAfterSeason': {
    zh: '这样会把后续作业「{name}」推迟到 {startOn} 至 {endOn}，晚于种植季结束日期 {seasonEnd}；未做任何修改',
    en: 'This would push the following item “{name}” to {startOn} – {endOn}, after the season ends ({seasonEnd}); nothing was changed',
    es: 'Esto llevaría la labor siguiente «{name}» al {startOn} – {endOn}, después del fin de la temporada ({seasonEnd}); no se cambió nada',
  },
  'planting.hasSuccessors': {
    zh: '「{name}」是其他农事的前置作业，只能是农事作业；请先解除这些前置关系',
    en: '“{name}” is the predecessor of other work items and must stay a work item; remove those dependencies first',
    es: '«{name}» es la labor previa de otras labores y debe seguir siendo una labor; quite antes esas dependencias',
  },
  'planting.notice.approved': { zh: '种植计划已通过审核', en: 'Planting plan approved', es: 'Plan de cultivo aprobado' },
  'planting.notice.rejected': { zh: '种植计划被驳回', en: 'Planting plan rejected', es: 'Plan de cultivo rechazado' },
  'planting.reasonOwned': {
    zh: '驳回原因由区域管理中心驳回时填写，不能在此修改',
    en: 'The reason for rejection is given by the regional center when it rejects the plan; it cannot be changed here',
    es: 'El motivo del rechazo lo da el centro regional al rechazar el plan; no se puede cambiar aquí',
  },
});
