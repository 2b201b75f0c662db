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
