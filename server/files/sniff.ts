/**
 * What a file is, from its first bytes (its "magic number"), never from its name or the type
 * the browser claims: a script named photo.png is text, so it is none of these. SVG is
 * refused as an image on purpose — it is XML that can carry script and external references.
 * Pure, so the rules are testable without a server.
 */
import type { FileType } from '../../runtime/schema/resource/types.ts';

export function sniff(head: Uint8Array): FileType | null {
  const at = (i: number, bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  const ascii = (i: number, text: string) => at(i, [...text].map((c) => c.charCodeAt(0)));
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, '%PDF-')) return 'application/pdf';
  return null;
}

/** Whether the start of a file looks like SVG (or other XML), to say so in the refusal. */
export function looksLikeSvg(head: Uint8Array): boolean {
  const text = Buffer.from(head.subarray(0, 512)).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  return text.startsWith('<?xml') || text.startsWith('<svg') || (text.startsWith('<!--') && text.includes('<svg')) || text.startsWith('<!doctype svg');
}

export const isImage = (type: FileType): boolean => type.startsWith('image/');

/** Human names of the types, for refusals and the form's hint. */
export const TYPE_NAMES: Record<FileType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'application/pdf': 'PDF',
};
