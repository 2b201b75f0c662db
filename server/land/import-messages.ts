/** Sentences of the land import and export (zh / en / es): docs/land-and-maps.md, "Import and export". */
import { defineMessages } from '../i18n/catalog.ts';

export const importMsg = defineMessages({
  // About the file (40001 on `content`, nothing read further).
  'land.file.tooLarge': { zh: '文件过大（上限 {limit} MB）', en: 'The file is too large (at most {limit} MB)', es: 'El archivo es demasiado grande (máximo {limit} MB)' },
  'land.file.format': {
    zh: '无法识别的文件：请上传 GeoJSON、KML、KMZ 或压缩为 zip 的 Shapefile（含 .shp、.dbf、.prj）',
    en: 'Unrecognised file: upload GeoJSON, KML, KMZ or a Shapefile zipped with its .shp, .dbf and .prj',
    es: 'Archivo no reconocido: suba GeoJSON, KML, KMZ o un Shapefile comprimido en zip con sus .shp, .dbf y .prj',
  },
  'land.file.damaged': { zh: '文件已损坏或格式不完整，无法读取', en: 'The file is damaged or incomplete and cannot be read', es: 'El archivo está dañado o incompleto y no se puede leer' },
  'land.file.tooManyFeatures': {
    zh: '文件有 {count} 个要素，一次最多导入 {limit} 个',
    en: 'The file has {count} features; at most {limit} can be imported at once',
    es: 'El archivo tiene {count} elementos; se pueden importar como máximo {limit} a la vez',
  },
  'land.file.tooManyPositions': {
    zh: '文件有 {count} 个坐标点，一次最多 {limit} 个',
    en: 'The file has {count} positions; at most {limit} at once',
    es: 'El archivo tiene {count} posiciones; como máximo {limit} a la vez',
  },
  'land.file.zipLimit': {
    zh: '压缩包解压后超过 {limit} MB 或压缩比异常，可能是恶意文件，已停止读取',
    en: 'The zip inflates past {limit} MB or has an abnormal compression ratio (possibly malicious); reading stopped',
    es: 'El zip se descomprime por encima de {limit} MB o tiene una tasa de compresión anómala (posiblemente malicioso); lectura detenida',
  },
  'land.file.noFeatures': { zh: '文件中没有要素', en: 'The file holds no features', es: 'El archivo no contiene elementos' },
  'land.file.crs': {
    zh: '文件的坐标系「{crs}」不受支持：GeoJSON 应为 WGS 84 经纬度（RFC 7946）',
    en: 'The file’s coordinate system “{crs}” is not supported: GeoJSON must be WGS 84 longitude/latitude (RFC 7946)',
    es: 'El sistema de coordenadas «{crs}» del archivo no es compatible: GeoJSON debe estar en longitud/latitud WGS 84 (RFC 7946)',
  },
  'land.file.noPrj': {
    zh: 'Shapefile 缺少 .prj 文件，无法确定坐标系：请连同 .prj 一起压缩上传',
    en: 'The Shapefile has no .prj, so its coordinate system is unknown: zip it with its .prj',
    es: 'El Shapefile no tiene .prj, así que su sistema de coordenadas es desconocido: comprímalo junto con su .prj',
  },
  'land.file.projection': {
    zh: '坐标系「{name}」不受支持：可用 WGS 84 或 CGCS2000 经纬度，或基于它们的投影坐标（如 CGCS2000 高斯-克吕格、UTM）',
    en: 'The coordinate system “{name}” is not supported: use WGS 84 or CGCS2000 longitude/latitude, or a projection on them (CGCS2000 Gauss-Krüger, UTM)',
    es: 'El sistema de coordenadas «{name}» no es compatible: use longitud/latitud WGS 84 o CGCS2000, o una proyección sobre ellos (Gauss-Krüger CGCS2000, UTM)',
  },
  'land.file.shapeType': {
    zh: 'Shapefile 的图形类型 {type} 不受支持（可用点、线、面）',
    en: 'Shapefile shape type {type} is not supported (points, lines and polygons are)',
    es: 'El tipo de forma {type} del Shapefile no es compatible (sí lo son puntos, líneas y polígonos)',
  },
  'land.file.farm': { zh: '请选择要导入到的农场', en: 'Choose the farm to import into', es: 'Elija la granja a la que importar' },

  // About one feature (the preview's sentence; the feature is not written).
  'land.import.missingName': { zh: '第 {index} 个要素没有名称', en: 'Feature {index} has no name', es: 'El elemento {index} no tiene nombre' },
  'land.import.wrongType': {
    zh: '「{name}」是 {type}，{layer}只能是 {kinds}',
    en: '“{name}” is a {type}; {layer} take {kinds} only',
    es: '«{name}» es un {type}; {layer} admite solo {kinds}',
  },
  'land.import.multipart': {
    zh: '「{name}」由 {parts} 个互不相连的部分组成，请拆分为单独的要素',
    en: '“{name}” has {parts} separate parts; split it into one feature per part',
    es: '«{name}» tiene {parts} partes separadas; divídalo en un elemento por parte',
  },
  'land.import.layer': {
    zh: '「{name}」的图层「{value}」无法识别（可用：场界、地块、温室群、温室、设施）',
    en: '“{name}” names an unknown layer “{value}” (boundary, plots, greenhouseGroups, greenhouses, facilities)',
    es: '«{name}» indica una capa desconocida «{value}» (boundary, plots, greenhouseGroups, greenhouses, facilities)',
  },
  'land.import.outsideBoundary': {
    zh: '「{name}」有 {percent}% 在农场边界之外，最多允许 {tolerance}%',
    en: '{percent}% of “{name}” lies outside the farm’s boundary; at most {tolerance}% is allowed',
    es: 'El {percent} % de «{name}» queda fuera del límite de la granja; se permite como máximo un {tolerance} %',
  },
  'land.import.overlap': {
    zh: '「{name}」与「{other}」重叠了 {percent}%，最多允许 {tolerance}%',
    en: '“{name}” overlaps “{other}” by {percent}%; at most {tolerance}% is allowed',
    es: '«{name}» se superpone con «{other}» en un {percent} %; se permite como máximo un {tolerance} %',
  },
  'land.import.duplicate': {
    zh: '文件中已有名为「{name}」的{layer}（第 {first} 个要素）',
    en: 'The file already has {layer} named “{name}” (feature {first})',
    es: 'El archivo ya tiene {layer} con el nombre «{name}» (elemento {first})',
  },
  'land.import.noGroup': {
    zh: '温室「{name}」不在任何温室群的范围内，也没有指明所属温室群（group）',
    en: 'Greenhouse “{name}” lies in no greenhouse group’s outline and names no group (group)',
    es: 'El invernadero «{name}» no está dentro de ningún grupo de invernaderos ni indica su grupo (group)',
  },
  'land.import.geometry': { zh: '「{name}」的图形', en: 'The shape of “{name}”', es: 'La forma de «{name}»' },
  'land.import.noBoundary': {
    zh: '农场还没有边界：无法检查地块是否在农场内',
    en: 'The farm has no boundary yet: plots cannot be checked to lie inside it',
    es: 'La granja aún no tiene límite: no se puede comprobar que las parcelas estén dentro',
  },
  'land.import.previewed': {
    zh: '将新建 {create} 个、更新 {update} 个，{refused} 个不能导入',
    en: '{create} to create, {update} to update, {refused} refused',
    es: '{create} por crear, {update} por actualizar, {refused} rechazados',
  },
  'land.import.done': {
    zh: '已新建 {create} 个、更新 {update} 个，{refused} 个未导入',
    en: '{create} created, {update} updated, {refused} not imported',
    es: '{create} creados, {update} actualizados, {refused} no importados',
  },
  // The form's rule (server/land/extensions.ts).
  'land.outsideBoundary': {
    zh: '{field}有 {percent}% 在农场边界之外，最多允许 {tolerance}%',
    en: '{percent}% of {field} lies outside the farm’s boundary; at most {tolerance}% is allowed',
    es: 'El {percent} % de {field} queda fuera del límite de la granja; se permite como máximo un {tolerance} %',
  },
});

/** The layers' names in sentences. */
export const LAYER_TITLES: Record<string, { zh: string; en: string; es: string }> = {
  boundary: { zh: '农场边界', en: 'the farm boundary', es: 'el límite de la granja' },
  plots: { zh: '地块', en: 'plots', es: 'las parcelas' },
  greenhouseGroups: { zh: '温室群', en: 'greenhouse groups', es: 'los grupos de invernaderos' },
  greenhouses: { zh: '温室', en: 'greenhouses', es: 'los invernaderos' },
  facilities: { zh: '设施', en: 'facilities', es: 'las instalaciones' },
};
