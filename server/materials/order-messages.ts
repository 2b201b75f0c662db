import { defineMessages } from '../i18n/catalog.ts';

/** The purchase orders' and hand-overs' sentences (zh / en / es). */
export const orderMsg = defineMessages({
  'orders.status.draft': { zh: '草稿', en: 'Draft', es: 'Borrador' },
  'orders.status.submitted': { zh: '已提交', en: 'Submitted', es: 'Enviado' },
  'orders.status.accepted': { zh: '已接单', en: 'Accepted', es: 'Aceptado' },
  'orders.status.refused': { zh: '已拒绝', en: 'Refused', es: 'Rechazado' },
  'orders.status.shipped': { zh: '已发货', en: 'Shipped', es: 'Enviado por el vendedor' },
  'orders.status.received': { zh: '已收货', en: 'Received', es: 'Recibido' },
  'orders.status.closed': { zh: '已关闭', en: 'Closed', es: 'Cerrado' },
  'orders.transition.submit': { zh: '提交', en: 'Submit', es: 'Enviar' },
  'orders.transition.accept': { zh: '接单', en: 'Accept', es: 'Aceptar' },
  'orders.transition.refuse': { zh: '拒绝', en: 'Refuse', es: 'Rechazar' },
  'orders.transition.ship': { zh: '发货', en: 'Ship', es: 'Despachar' },
  'orders.transition.receive': { zh: '收货入库', en: 'Receive', es: 'Recibir' },
  'orders.transition.close': { zh: '关闭', en: 'Close', es: 'Cerrar' },
  'orders.wrongState': {
    zh: '订单 {number} 的状态是「{state}」，不能「{action}」',
    en: 'Order {number} is «{state}», so «{action}» cannot be done now',
    es: 'El pedido {number} está «{state}», así que no se puede «{action}» ahora',
  },
  'orders.notDraft': {
    zh: '订单已提交，不能修改或删除',
    en: 'The order was submitted; it can no longer be edited or deleted',
    es: 'El pedido ya se envió; no se puede modificar ni eliminar',
  },
  'orders.sellerMissing': { zh: '厂家不存在', en: 'The manufacturer does not exist', es: 'El fabricante no existe' },
  'orders.sellerOne': {
    zh: '请选择一个厂家或一个供应商（只能选一个）',
    en: 'Choose one manufacturer or one supplier (exactly one)',
    es: 'Elija un fabricante o un proveedor (solo uno)',
  },
  'orders.expectedBeforeOrdered': {
    zh: '期望到货日期不能早于下单日期',
    en: 'The expected delivery date cannot be before the order date',
    es: 'La fecha de entrega esperada no puede ser anterior a la del pedido',
  },
  'orders.reasonRequired': { zh: '请填写拒绝原因', en: 'Give the reason for refusing', es: 'Indique el motivo del rechazo' },
  'orders.stale': {
    zh: '订单已被他人修改，请刷新后重试',
    en: 'The order was changed by someone else; reload it and try again',
    es: 'Otra persona cambió el pedido; recárguelo e inténtelo de nuevo',
  },
  'orders.overShip': {
    zh: '「{name}」只剩 {left} {unit} 未发货，本次要发 {wanted} {unit}',
    en: 'Only {left} {unit} of “{name}” are left to ship; this shipment takes {wanted} {unit}',
    es: 'Solo quedan {left} {unit} de «{name}» por despachar; este envío lleva {wanted} {unit}',
  },
  'orders.shipNowNeeded': {
    zh: '请至少在一行填写本次发货数量',
    en: 'Type the quantity to ship now on at least one line',
    es: 'Indique la cantidad a despachar en al menos una línea',
  },
  'orders.lineMissing': { zh: '订单没有这一行', en: 'The order has no such line', es: 'El pedido no tiene esa línea' },
  'orders.nothingToShip': { zh: '订单已全部发货', en: 'Everything ordered has been shipped', es: 'Ya se despachó todo lo pedido' },
  'orders.shipmentMissing': { zh: '发货单不存在', en: 'The shipment does not exist', es: 'El envío no existe' },
  'orders.alreadyReceived': {
    zh: '发货单 {number} 已收货入库（入库单 {movement}），不能重复收货',
    en: 'Shipment {number} was already received (stock-in {movement}); it is received once only',
    es: 'El envío {number} ya se recibió (entrada {movement}); se recibe una sola vez',
  },
  'orders.nothingToReceive': { zh: '没有待收货的发货单', en: 'No shipment is waiting to be received', es: 'Ningún envío espera recepción' },
  'orders.pendingShipments': {
    zh: '还有发货单未收货，不能关闭',
    en: 'A shipment is still waiting to be received; the order cannot be closed',
    es: 'Un envío aún espera recepción; el pedido no se puede cerrar',
  },
  'orders.purpose': { zh: '采购入库 {number}', en: 'Purchase {number}', es: 'Compra {number}' },
  'handover.sameFarm': {
    zh: '移交要到本集团的另一个农场',
    en: 'A hand-over goes to another farm of the group',
    es: 'Una entrega va a otra granja del grupo',
  },
  'handover.notWaiting': {
    zh: '移交申请 {number} 已处理，不再等待接收',
    en: 'Hand-over request {number} was already settled; it no longer waits for acceptance',
    es: 'La solicitud de entrega {number} ya se resolvió; ya no espera aceptación',
  },
  'handover.stale': {
    zh: '移交申请 {number} 已被他人修改，请刷新后重试',
    en: 'Hand-over request {number} was changed by someone else; reload and try again',
    es: 'Otra persona cambió la solicitud de entrega {number}; recargue e inténtelo de nuevo',
  },
  'handover.toStoreMissing': {
    zh: '接收仓库不存在或不属于本集团的农场',
    en: 'The receiving store does not exist or is not of a farm of the group',
    es: 'El almacén receptor no existe o no es de una granja del grupo',
  },
  'handover.noMaterialThere': {
    zh: '接收农场没有商品编码为「{code}」的农资，请先在对方的农资列表中建立',
    en: 'The receiving farm has no material with goods code “{code}”; it must be in its catalogue first',
    es: 'La granja receptora no tiene un insumo con el código «{code}»; debe estar antes en su catálogo',
  },
  'handover.out': { zh: '移交给 {farm}', en: 'Handed over to {farm}', es: 'Entregado a {farm}' },
  'handover.in': { zh: '接收自 {farm}', en: 'Received from {farm}', es: 'Recibido de {farm}' },
  'records.materialStock': {
    zh: '农事记录的用料已出库（{number}），不能再改用料或仓库；如有错误，请冲销出库单',
    en: 'The record’s materials were drawn ({number}); its materials and store no longer change; reverse the stock-out instead',
    es: 'Los materiales del registro ya se sacaron ({number}); no cambian más; anule la salida',
  },
  'records.storeNeeded': {
    zh: '从仓库领用需先选仓库',
    en: 'Choose the store the materials are drawn from',
    es: 'Elija el almacén del que se sacan los materiales',
  },
  'materials.receiptNotReversed': {
    zh: '这张入库单是采购收货（发货单 {number}）生成的，不能单独冲销',
    en: 'This stock-in was posted by receiving shipment {number} of a purchase order; it is not reversed on its own',
    es: 'Esta entrada la registró la recepción del envío {number} de un pedido; no se anula por separado',
  },
  'materials.handOverNotReversed': {
    zh: '这张单据是农场间移交的一半，不能单独冲销',
    en: 'This movement is one half of a hand-over between farms; it is not reversed on its own',
    es: 'Este movimiento es la mitad de una entrega entre granjas; no se anula por separado',
  },
  'records.purpose': { zh: '农事记录领用', en: 'Farming record', es: 'Registro agrícola' },
});
