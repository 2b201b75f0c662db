import { defineMessages } from '../i18n/catalog.ts';

/** The harvest, sales, accounting and traceability module's sentences (zh / en / es). */
export const msg = defineMessages({
  'harvest.groupMissing': { zh: '种植组不存在', en: 'The planting group does not exist', es: 'El grupo de cultivo no existe' },
  'harvest.batchMissing': { zh: '采收批次不存在', en: 'The harvest batch does not exist', es: 'El lote de cosecha no existe' },
  'harvest.productMissing': { zh: '产品不存在', en: 'The product does not exist', es: 'El producto no existe' },
  'harvest.decimals': { zh: '最多 {digits} 位小数', en: 'At most {digits} decimal places', es: 'Como máximo {digits} decimales' },
  'harvest.oversold': {
    zh: '批次 {batch} 只剩 {left} {unit} 未售，本单要售 {wanted} {unit}',
    en: 'Batch {batch} has only {left} {unit} unsold; this order sells {wanted} {unit}',
    es: 'Al lote {batch} solo le quedan {left} {unit} sin vender; este pedido vende {wanted} {unit}',
  },
  'harvest.otherFarmBatch': {
    zh: '一张销售单只能出售同一农场的批次',
    en: 'One sales order sells batches of one farm only',
    es: 'Un pedido de venta solo vende lotes de una granja',
  },
  'harvest.insideInterval': {
    zh: '{material} 于 {appliedOn} 施用（{number}），安全间隔期 {days} 天，这个种植组 {safeFrom} 起才能采收',
    en: '{material} was applied on {appliedOn} ({number}); its safety interval is {days} days, so this planting group can be harvested from {safeFrom}',
    es: '{material} se aplicó el {appliedOn} ({number}); su plazo de seguridad es de {days} días, así que este grupo se puede cosechar a partir del {safeFrom}',
  },
  'harvest.overrideNotNeeded': {
    zh: '这次采收不在任何安全间隔期内，不需要填写放行理由',
    en: 'This harvest is inside no safety interval; no override reason is needed',
    es: 'Esta cosecha no está dentro de ningún plazo de seguridad; no hace falta un motivo',
  },
  'harvest.recalledNotSold': {
    zh: '批次 {batch} 已召回，不能再销售',
    en: 'Batch {batch} has been recalled and cannot be sold',
    es: 'El lote {batch} ha sido retirado y no se puede vender',
  },
  'harvest.alreadyRecalled': { zh: '批次 {batch} 已经召回', en: 'Batch {batch} has already been recalled', es: 'El lote {batch} ya fue retirado' },
  'harvest.recallReason': {
    zh: '请写明召回原因（4–200 字）',
    en: 'Please give the reason for the recall (4–200 characters)',
    es: 'Indique el motivo de la retirada (4–200 caracteres)',
  },
  'harvest.releaseCause': {
    zh: '{material} {appliedOn} 施用，{safeFrom} 起才安全',
    en: '{material} applied on {appliedOn}, safe from {safeFrom}',
    es: '{material} aplicado el {appliedOn}, seguro desde el {safeFrom}',
  },
  'harvest.held': {
    zh: '批次 {batch} 在农药安全间隔期内采收（{cause}），要等本批次采收后的农残检测合格，或有放行权限的人写明理由放行，才能生成追溯码和销售',
    en: 'Batch {batch} was harvested inside a pesticide safety interval ({cause}); it gets no trace code and no sale until a residue test of this batch, dated after its harvest, passes, or someone allowed to release it gives a reason',
    es: 'El lote {batch} se cosechó dentro de un plazo de seguridad ({cause}); no tendrá código ni venta hasta que un análisis de residuos de este lote, posterior a su cosecha, sea conforme, o alguien autorizado lo libere con un motivo',
  },
  'harvest.heldFailed': {
    zh: '批次 {batch} 在农药安全间隔期内采收（{cause}），{testedOn} 的本批次农残检测不合格，不能生成追溯码，也不能销售',
    en: 'Batch {batch} was harvested inside a pesticide safety interval ({cause}) and its residue test of {testedOn} failed; it gets no trace code and no sale',
    es: 'El lote {batch} se cosechó dentro de un plazo de seguridad ({cause}) y su análisis de residuos del {testedOn} no fue conforme; no tendrá código ni venta',
  },
  'harvest.releasedByTest': {
    zh: '批次 {batch} 在安全间隔期内采收，{testedOn} 本批次农残检测合格，已放行',
    en: 'Batch {batch} was harvested inside a safety interval; released by its passing residue test of {testedOn}',
    es: 'El lote {batch} se cosechó dentro de un plazo de seguridad; liberado por su análisis de residuos conforme del {testedOn}',
  },
  'harvest.releasedByPerson': {
    zh: '批次 {batch} 在安全间隔期内采收，未经检测由人工放行：{reason}',
    en: 'Batch {batch} was harvested inside a safety interval; released without a test by a person: {reason}',
    es: 'El lote {batch} se cosechó dentro de un plazo de seguridad; liberado sin análisis por una persona: {reason}',
  },
  'harvest.releaseNotHeld': {
    zh: '批次 {batch} 没有被安全间隔期扣留，不需要放行',
    en: 'Batch {batch} is not held by a safety interval; there is nothing to release',
    es: 'El lote {batch} no está retenido por un plazo de seguridad; no hay nada que liberar',
  },
  'harvest.releaseReason': {
    zh: '请写明放行理由（4–200 字）',
    en: 'Please give the reason for the release (4–200 characters)',
    es: 'Indique el motivo de la liberación (4–200 caracteres)',
  },
  'harvest.heldOption': { zh: '未放行：待本批次检测', en: 'held: waiting for its test', es: 'retenido: espera su análisis' },
  'harvest.fieldRequired': { zh: '必填', en: 'Required', es: 'Obligatorio' },
  'harvest.materialMissing': { zh: '农资不存在', en: 'The input does not exist', es: 'El insumo no existe' },
  'harvest.lotMissing': { zh: '请填写批号', en: 'Please give the lot number', es: 'Indique el número de lote' },
  'harvest.lotUnknown': {
    zh: '台账里没有 {material} 批号 {lot} 的出入库记录',
    en: 'The stock ledger has no movement of {material} lot {lot}',
    es: 'El libro de existencias no tiene movimientos de {material}, lote {lot}',
  },
  'harvest.lotAlreadyRecalled': {
    zh: '{material} 批号 {lot} 已经召回（{number}）',
    en: '{material} lot {lot} has already been recalled ({number})',
    es: '{material}, lote {lot}, ya fue retirado ({number})',
  },
  'harvest.recallNoticeTitle': { zh: '召回 {number}：{subject}', en: 'Recall {number}: {subject}', es: 'Retirada {number}: {subject}' },
  'harvest.recallNoticeBody': {
    zh: '{farm} 召回，原因：{reason}。请联系以下客户，记录退回和销毁数量：',
    en: '{farm} recalls, because: {reason}. Contact these customers and record what is returned and destroyed:',
    es: '{farm} retira, motivo: {reason}. Contacte con estos clientes y registre lo devuelto y destruido:',
  },
  'harvest.recallText': {
    zh: '【{farm}】召回通知：您 {on} 购买的{crop}（批次 {batch}，{quantity} {unit}）因“{reason}”召回，请立即停止销售和食用，联系农场退回或销毁。',
    en: '[{farm}] Recall: the {crop} you bought on {on} (batch {batch}, {quantity} {unit}) is recalled because "{reason}". Stop selling and eating it; contact the farm to return or destroy it.',
    es: '[{farm}] Retirada: el {crop} que compró el {on} (lote {batch}, {quantity} {unit}) se retira por "{reason}". Deje de venderlo y consumirlo; contacte con la granja para devolverlo o destruirlo.',
  },
  'harvest.recallOverReconciled': {
    zh: '退回 {returned} + 销毁 {destroyed} = {total} {unit}，超过了批次 {batch} 卖给 {customer} 的 {sold} {unit}',
    en: 'Returned {returned} + destroyed {destroyed} = {total} {unit}, more than the {sold} {unit} of batch {batch} sold to {customer}',
    es: 'Devuelto {returned} + destruido {destroyed} = {total} {unit}, más que los {sold} {unit} del lote {batch} vendidos a {customer}',
  },
  'harvest.notConfirmed': { zh: '只有已确认的销售单可以作废', en: 'Only a confirmed order can be cancelled', es: 'Solo se puede anular un pedido confirmado' },
  'harvest.batchInUse': {
    zh: '批次 {batch} 已有销售或追溯码，不能删除',
    en: 'Batch {batch} has sales or a trace code and cannot be deleted',
    es: 'El lote {batch} tiene ventas o un código de trazabilidad y no se puede eliminar',
  },
  'harvest.categoryOfOtherDirection': {
    zh: '该科目不属于所选收支方向',
    en: 'This category is not one of the chosen direction',
    es: 'Esta categoría no corresponde a la dirección elegida',
  },
  'harvest.entryNotManual': {
    zh: '销售和采购自动生成的账目不能在这里修改或删除；请作废销售单或冲销入库单',
    en: 'Entries posted by sales and purchases are not changed here; cancel the sale or reverse the stock-in',
    es: 'Los asientos de ventas y compras no se cambian aquí; anule la venta o revierta la entrada',
  },
  'harvest.periodOrder': { zh: '结束日期不能早于开始日期', en: 'The end date cannot be before the start date', es: 'La fecha final no puede ser anterior a la inicial' },
  'harvest.reviewMissing': { zh: '评价不存在', en: 'The review does not exist', es: 'La reseña no existe' },
  'harvest.saleNote': { zh: '销售单 {number}（{customer}）', en: 'Sales order {number} ({customer})', es: 'Pedido {number} ({customer})' },
  'harvest.saleCancelNote': { zh: '作废销售单 {number}', en: 'Cancelled sales order {number}', es: 'Pedido anulado {number}' },
});
