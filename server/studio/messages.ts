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
    zh: '用示例数据渲染页面失败：{why}',
    en: 'the screen does not render with fixture data: {why}',
    es: 'la pantalla no se muestra con los datos de prueba: {why}',
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
