import { defineMessages } from '../i18n/catalog.ts';
import type { GeometryMessageKey } from './geometry.ts';

/** The land module's sentences (zh / en / es); `{field}` is the shape field's title. */
const geometryMessages: Record<GeometryMessageKey, { zh: string; en: string; es: string }> = {
  'land.geometry.notJson': {
    zh: '{field}不是合法的 GeoJSON 图形',
    en: '{field} is not a valid GeoJSON shape',
    es: '{field} no es una forma GeoJSON válida',
  },
  'land.geometry.kind': {
    zh: '{field}只能是以下图形：{kinds}',
    en: '{field} must be one of these shapes: {kinds}',
    es: '{field} debe ser una de estas formas: {kinds}',
  },
  'land.geometry.coordinates': {
    zh: '{field}的坐标应为［经度, 纬度］数字对',
    en: 'The coordinates of {field} must be [longitude, latitude] pairs of numbers',
    es: 'Las coordenadas de {field} deben ser pares numéricos [longitud, latitud]',
  },
  'land.geometry.outOfBounds': {
    zh: '{field}的坐标超出经纬度范围（经度 −180～180，纬度 −90～90）',
    en: '{field} has a point outside longitude −180…180 / latitude −90…90',
    es: '{field} tiene un punto fuera de longitud −180…180 / latitud −90…90',
  },
  'land.geometry.tooFewPoints': {
    zh: '{field}至少需要 {min} 个不同的点',
    en: '{field} needs at least {min} distinct points',
    es: '{field} necesita al menos {min} puntos distintos',
  },
  'land.geometry.notClosed': {
    zh: '{field}的边界没有闭合：最后一个点须与第一个点相同',
    en: 'The outline of {field} is not closed: its last point must equal its first',
    es: 'El contorno de {field} no está cerrado: su último punto debe ser igual al primero',
  },
  'land.geometry.selfIntersects': {
    zh: '{field}的边线自相交，请调整顶点使边界不交叉',
    en: 'The edges of {field} cross each other; move the corners so the outline does not cross itself',
    es: 'Los bordes de {field} se cruzan; mueva los vértices para que el contorno no se cruce',
  },
  'land.geometry.tooManyVertices': {
    zh: '{field}有 {count} 个顶点，最多 {max} 个',
    en: '{field} has {count} corners; at most {max} are allowed',
    es: '{field} tiene {count} vértices; se permiten como máximo {max}',
  },
  'land.geometry.tooLarge': {
    zh: '{field}的范围过大（超过 1 度经纬度），请检查坐标',
    en: '{field} spans more than one degree; check the coordinates',
    es: '{field} abarca más de un grado; revise las coordenadas',
  },
  'land.geometry.tooSmall': {
    zh: '{field}的面积太小（不足 1 平方米）',
    en: '{field} is too small (under 1 m²)',
    es: '{field} es demasiado pequeña (menos de 1 m²)',
  },
  'land.geometry.tooManyHoles': {
    zh: '{field}最多可有 {max} 个内洞',
    en: '{field} may have at most {max} holes',
    es: '{field} puede tener como máximo {max} huecos',
  },
  'land.geometry.overlap': {
    zh: '{field}与「{name}」重叠了 {percent}%，最多允许 {tolerance}%',
    en: '{field} overlaps “{name}” by {percent}%; at most {tolerance}% is allowed',
    es: '{field} se superpone con «{name}» en un {percent} %; se permite como máximo un {tolerance} %',
  },
};

export const msg = defineMessages({
  ...geometryMessages,
  'land.areaOrShape': {
    zh: '请填写{area}或绘制{field}',
    en: 'Enter {area} or draw {field}',
    es: 'Indique {area} o dibuje {field}',
  },
});
