import { defineMessages } from '../i18n/catalog.ts';

/** The materials module's sentences (zh / en / es). */
export const msg = defineMessages({
  'materials.notEnough': {
    zh: '库存不足：{store}中「{material}」{batch}只剩 {left} {unit}，本单要出 {wanted} {unit}',
    en: 'Not enough stock: {store} has only {left} {unit} of “{material}”{batch} left; this movement takes {wanted} {unit}',
    es: 'Existencias insuficientes: en {store} solo quedan {left} {unit} de «{material}»{batch}; este movimiento saca {wanted} {unit}',
  },
  'materials.contentUnitNeeded': {
    zh: '填写了每单位含量，请同时填写含量单位（如 公斤、克、毫升）',
    en: 'With a content per unit, give its unit too (e.g. kg, g, ml)',
    es: 'Con un contenido por unidad, indique también su unidad (p. ej. kg, g, ml)',
  },
  'materials.contentPerUnitNeeded': {
    zh: '填写了含量单位，请同时填写每单位含量',
    en: 'With a content unit, give the content per unit too',
    es: 'Con una unidad del contenido, indique también el contenido por unidad',
  },
  'materials.contentUnitSame': {
    zh: '含量单位不能与库存单位「{unit}」相同',
    en: 'The content unit cannot be the stock unit “{unit}”',
    es: 'La unidad del contenido no puede ser la unidad de existencias «{unit}»',
  },
  'materials.batchOf': { zh: '（批次 {batch}）', en: ' (batch {batch})', es: ' (lote {batch})' },
  'materials.storeMissing': { zh: '仓库不存在', en: 'The store does not exist', es: 'El almacén no existe' },
  'materials.materialMissing': { zh: '农资不存在', en: 'The material does not exist', es: 'El insumo no existe' },
  'materials.supplierMissing': { zh: '供应商不存在', en: 'The supplier does not exist', es: 'El proveedor no existe' },
  'materials.groupMissing': { zh: '种植组不存在', en: 'The planting group does not exist', es: 'El grupo de cultivo no existe' },
  'materials.taskMissing': { zh: '农事任务不存在', en: 'The farming task does not exist', es: 'La tarea agrícola no existe' },
  'materials.taskOfOtherGroup': {
    zh: '该任务不属于所选种植组',
    en: 'This task is not one of the chosen planting group',
    es: 'Esta tarea no es del grupo de cultivo elegido',
  },
  'materials.decimals': {
    zh: '最多 {digits} 位小数',
    en: 'At most {digits} decimal places',
    es: 'Como máximo {digits} decimales',
  },
  'materials.expiryBeforeProduction': {
    zh: '有效期不能早于生产日期',
    en: 'The expiry date cannot be before the production date',
    es: 'La fecha de caducidad no puede ser anterior a la de fabricación',
  },
  'materials.confirmedImmutable': {
    zh: '出入库单已确认，不能修改或删除；如有错误，请做一张冲销单',
    en: 'A confirmed stock movement is never edited or deleted; to correct it, post a reversal',
    es: 'Un movimiento confirmado no se modifica ni se elimina; para corregirlo, registre una anulación',
  },
  'materials.alreadyReversed': {
    zh: '这张单据已经冲销过（冲销单 {number}），不能再次冲销',
    en: 'This movement was already reversed (by {number}); it is reversed once only',
    es: 'Este movimiento ya se anuló (con {number}); solo se anula una vez',
  },
  'materials.reversalNotReversed': {
    zh: '冲销单不能再被冲销；请重新做一张出入库单',
    en: 'A reversal is not reversed itself; post a new movement instead',
    es: 'Una anulación no se anula; registre un movimiento nuevo',
  },
  'materials.goodsCodeTaken': {
    zh: '本农场已有商品编码为「{code}」的农资',
    en: 'The farm already has a material with goods code “{code}”',
    es: 'La granja ya tiene un insumo con el código «{code}»',
  },
  'materials.inUse': {
    zh: '「{name}」已有出入库记录，不能删除',
    en: '“{name}” has stock movements and cannot be deleted',
    es: '«{name}» tiene movimientos de almacén y no se puede eliminar',
  },
  'materials.safetyIntervalPesticideOnly': {
    zh: '安全间隔期只适用于农药',
    en: 'A safety interval applies to pesticides only',
    es: 'El plazo de seguridad solo se aplica a plaguicidas',
  },
  'materials.reversalOf': { zh: '冲销 {number}', en: 'Reversal of {number}', es: 'Anulación de {number}' },
});
