import type { Lang } from './lang.ts';

export type Texts = Record<Lang, string>;

const catalog = new Map<string, Texts>();

/**
 * Each server module keeps its own messages next to its code and registers them here,
 * so that modules never edit one shared file. A key registered twice with other texts
 * is a programming error.
 */
export function defineMessages<K extends string>(messages: Record<K, Texts>): Record<K, K> {
  const keys = {} as Record<K, K>;
  for (const [key, texts] of Object.entries(messages) as [K, Texts][]) {
    const prev = catalog.get(key);
    if (prev && JSON.stringify(prev) !== JSON.stringify(texts)) throw new Error(`message ${key} defined twice`);
    catalog.set(key, texts);
    keys[key] = key;
  }
  return keys;
}

/** Text for `key` in `lang` with `{name}` placeholders filled; an unknown key is returned as is. */
export function t(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const texts = catalog.get(key);
  const template = texts ? texts[lang] : key;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export const common = defineMessages({
  'common.ok': { zh: '操作成功', en: 'Operation successful', es: 'Operación realizada' },
  'common.notFound': { zh: '记录不存在', en: 'The record does not exist', es: 'El registro no existe' },
  'common.routeNotFound': { zh: '接口不存在', en: 'No such API endpoint', es: 'No existe ese punto de la API' },
  'common.internal': {
    zh: '服务器内部错误，请稍后再试',
    en: 'Internal server error, please try again later',
    es: 'Error interno del servidor, inténtelo más tarde',
  },
  'common.malformedJson': {
    zh: '请求体不是合法的 JSON',
    en: 'The request body is not valid JSON',
    es: 'El cuerpo de la petición no es JSON válido',
  },
  'common.unsupportedMediaType': {
    zh: '不支持的请求内容类型',
    en: 'Unsupported request content type',
    es: 'Tipo de contenido de la petición no admitido',
  },
  'common.bodyTooLarge': {
    zh: '请求体过大（上限 {limit} 字节）',
    en: 'The request body is too large (limit {limit} bytes)',
    es: 'El cuerpo de la petición es demasiado grande (límite {limit} bytes)',
  },
  'common.invalidInput': {
    zh: '输入不合法：{detail}',
    en: 'Invalid input: {detail}',
    es: 'Entrada no válida: {detail}',
  },
  'common.duplicate': {
    zh: '该值已被使用，请换一个',
    en: 'This value is already taken, please choose another',
    es: 'Este valor ya está en uso, elija otro',
  },
  'common.referenceConflict': {
    zh: '关联的记录不存在或仍被引用',
    en: 'A related record is missing or still in use',
    es: 'Un registro relacionado no existe o sigue en uso',
  },
  'common.tooMany': {
    zh: '请求过于频繁，请稍后再试',
    en: 'Too many requests, please try again later',
    es: 'Demasiadas peticiones, inténtelo más tarde',
  },
  'auth.tokenMissing': { zh: '未登录或登录已失效', en: 'Not logged in', es: 'No ha iniciado sesión' },
  'auth.tokenInvalid': {
    zh: '登录已失效，请重新登录',
    en: 'Your session has ended, please log in again',
    es: 'Su sesión ha terminado, inicie sesión de nuevo',
  },
  'auth.forbidden': {
    zh: '当前用户无相关操作权限！',
    en: 'You are not permitted to do this',
    es: 'No tiene permiso para hacer esto',
  },
});
