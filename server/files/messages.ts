import { defineMessages } from '../i18n/catalog.ts';

/** The files module's sentences (zh / en / es); `{field}` is the file field's title. */
export const fileMessages = defineMessages({
  'files.notFileField': {
    zh: '{resource} 没有名为 {field} 的文件字段',
    en: '{resource} has no file field named {field}',
    es: '{resource} no tiene un campo de archivos llamado {field}',
  },
  'files.tooLarge': {
    zh: '{field}：文件过大，每个文件不能超过 {max}',
    en: '{field}: the file is too large; each file may be at most {max}',
    es: '{field}: el archivo es demasiado grande; cada archivo puede tener como máximo {max}',
  },
  'files.wrongType': {
    zh: '{field}：只接受 {types} 文件（按文件内容识别，与文件名无关）',
    en: '{field}: only {types} files are accepted (recognised by their content, not their name)',
    es: '{field}: solo se aceptan archivos {types} (reconocidos por su contenido, no por su nombre)',
  },
  'files.svg': {
    zh: '{field}：不接受 SVG 图片（可能包含脚本），请上传 {types} 文件',
    en: '{field}: SVG images are not accepted (they can carry script); upload a {types} file',
    es: '{field}: no se aceptan imágenes SVG (pueden contener scripts); suba un archivo {types}',
  },
  'files.unreadableImage': {
    zh: '{field}：无法读取该图片，文件可能已损坏',
    en: '{field}: this image cannot be read; the file may be damaged',
    es: '{field}: no se puede leer esta imagen; el archivo puede estar dañado',
  },
  'files.noFile': {
    zh: '{field}：请选择一个文件',
    en: '{field}: choose a file',
    es: '{field}: elija un archivo',
  },
  'files.emptyFile': {
    zh: '{field}：文件是空的',
    en: '{field}: the file is empty',
    es: '{field}: el archivo está vacío',
  },
  'files.notMultipart': {
    zh: '上传文件须使用 multipart/form-data',
    en: 'Files are uploaded as multipart/form-data',
    es: 'Los archivos se suben como multipart/form-data',
  },
  'files.tooManyPending': {
    zh: '未保存的上传文件过多（{max} 个），请先保存或稍后再试',
    en: 'Too many uploads not yet saved on a record ({max}); save them or try again later',
    es: 'Demasiados archivos subidos sin guardar en un registro ({max}); guárdelos o inténtelo más tarde',
  },
  'files.unknownId': {
    zh: '{field}：文件 {id} 不存在或已过期，请重新上传',
    en: '{field}: file {id} does not exist or has expired; upload it again',
    es: '{field}: el archivo {id} no existe o ha caducado; vuelva a subirlo',
  },
  'files.fieldMismatch': {
    zh: '{field}：文件 {id} 不是为该字段上传的，或不符合该字段的类型和大小',
    en: '{field}: file {id} was not uploaded for this field, or does not meet its type and size',
    es: '{field}: el archivo {id} no se subió para este campo o no cumple su tipo y tamaño',
  },
  'files.duplicate': {
    zh: '{field}：同一文件出现了两次',
    en: '{field}: the same file appears twice',
    es: '{field}: el mismo archivo aparece dos veces',
  },
});

/** A size in words: 5 MB, 512 KB. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
