import { defineMessages } from '../i18n/catalog.ts';

/** The schema studio's sentences (zh / en / es). */
export const msg = defineMessages({
  'studio.refused': {
    zh: '未通过发布检查：{detail}',
    en: 'The publish gate refused the document: {detail}',
    es: 'El control de publicación rechazó el documento: {detail}',
  },
  'studio.publishedMeanwhile': {
    zh: '此文档已被他人发布（修订 {revision}，{author}）；请先查看对方的修改再发布',
    en: 'published meanwhile: revision {revision} by {author}; review what changed before publishing',
    es: 'publicado mientras tanto: revisión {revision} de {author}; revise los cambios antes de publicar',
  },
  'studio.noDocument': { zh: '没有这个文档', en: 'There is no such document', es: 'No existe ese documento' },
  'studio.noRevision': { zh: '此文档没有修订 {revision}', en: 'The document has no revision {revision}', es: 'El documento no tiene la revisión {revision}' },
  'studio.noDraft': { zh: '没有草稿', en: 'There is no draft', es: 'No hay borrador' },
  'studio.renderFailed': {
    zh: '用示例数据渲染页面失败，且无法确定是哪个区块（原因已记入服务器日志）',
    en: 'the screen does not render with sample data, and no single block could be blamed (the reason is in the server log)',
    es: 'la pantalla no se muestra con los datos de ejemplo y no se pudo culpar a un solo bloque (el motivo está en el registro del servidor)',
  },
  'studio.renderUnavailable': {
    zh: '页面渲染检查暂时无法运行，请稍后再试（原因已记入服务器日志）',
    en: 'the render check could not run just now: try again in a moment (the reason is in the server log)',
    es: 'la comprobación de renderizado no pudo ejecutarse ahora: vuelva a intentarlo en un momento (el motivo está en el registro del servidor)',
  },
  'studio.renderBlockFailed': {
    zh: '用示例数据渲染页面时，{place}无法显示：请检查它的设置（原因已记入服务器日志）',
    en: 'with sample data, {place} does not render: check its settings (the reason is in the server log)',
    es: 'con los datos de ejemplo, {place} no se muestra: revise su configuración (el motivo está en el registro del servidor)',
  },
  'studio.renderErrorPanel': {
    zh: '页面渲染为错误面板：{why}',
    en: 'the screen renders as an error panel: {why}',
    es: 'la pantalla se muestra como panel de error: {why}',
  },
  'studio.renderTimeout': {
    zh: '页面渲染超时（{ms} 毫秒）',
    en: 'the render check took longer than {ms} ms',
    es: 'la comprobación de renderizado tardó más de {ms} ms',
  },
  'studio.bundled': { zh: '内置版本', en: 'bundled version', es: 'versión incluida' },
  'studio.nobody': { zh: '未知用户', en: 'someone', es: 'alguien' },
});
