/**
 * Stored files as the console shows them (docs/schema-language.md, "Field types of records"):
 * a file field's value is a list of file ids; the bytes are read from
 * /api/files/:id[/thumbnail] with the session's token (an <img src> would carry none) and
 * kept as object URLs while the page lives. Images show as thumbnails (click to enlarge: the
 * full image is read then), documents as links that download them. Used by the cells of
 * lists, details and read views (the `files` render) and by the form's upload box.
 */
import { FileOutlined } from '@ant-design/icons';
import { Image, Space, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tokenAtom } from '../../session/atoms.ts';
import { callRoute } from '../../protocol/calls.ts';

export interface FileMeta {
  id: number;
  name: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  thumbnail: boolean;
}

export interface FileFieldOptions {
  resource: string;
  field: string;
  accept: string[];
  maxBytes: number;
  maxFiles: number;
}

const TYPE_NAMES: Record<string, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP', 'application/pdf': 'PDF' };
export const typeNames = (accept: string[]) => accept.map((a) => TYPE_NAMES[a] ?? a).join(' / ');
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export const fileUrl = (id: number, thumbnail = false) => `${callRoute('fileRead').url}/${id}${thumbnail ? '/thumbnail' : ''}`;
export const uploadUrl = (resource: string, field: string) => `${callRoute('fileUpload').url}?resource=${encodeURIComponent(resource)}&field=${encodeURIComponent(field)}`;

/** Object URLs and metadata already read, by token and address (a page of thumbnails reads each once). */
const blobs = new Map<string, Promise<string>>();
const metas = new Map<string, Promise<FileMeta>>();
const MAX_CACHED = 300;

function remember<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let hit = cache.get(key);
  if (!hit) {
    if (cache.size >= MAX_CACHED) {
      const oldest = cache.keys().next().value as string;
      const gone = cache.get(oldest);
      cache.delete(oldest);
      if (cache === (blobs as Map<string, unknown>)) void (gone as Promise<string> | undefined)?.then((u) => URL.revokeObjectURL(u)).catch(() => undefined);
    }
    hit = load();
    hit.catch(() => cache.delete(key));
    cache.set(key, hit);
  }
  return hit;
}

function headers(token: string | undefined, lang: string): Record<string, string> {
  return { ...(token ? { Authorization: token } : {}), 'Accept-Language': lang };
}

export function fileBlobUrl(id: number, thumbnail: boolean, token: string | undefined, lang: string): Promise<string> {
  return remember(blobs, `${token}|${fileUrl(id, thumbnail)}`, async () => {
    const res = await fetch(fileUrl(id, thumbnail), { headers: headers(token, lang) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return URL.createObjectURL(await res.blob());
  });
}

export function fileMeta(id: number, token: string | undefined, lang: string): Promise<FileMeta> {
  return remember(metas, `${token}|${id}`, async () => {
    const res = await fetch(`${fileUrl(id)}/meta`, { headers: { ...headers(token, lang), Accept: 'application/json' } });
    const body = await res.json();
    if (!res.ok || body?.status !== 200) throw new Error(body?.message ?? `HTTP ${res.status}`);
    return body.data as FileMeta;
  });
}

export const idsOf = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);

/** One stored file: its thumbnail (click to enlarge; the full image is read then) or, for a document, a link that downloads it. */
function StoredFile({ id, size, label }: { id: number; size: number; label?: string }) {
  const { t, i18n } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const [meta, setMeta] = useState<FileMeta | null>(null);
  const [thumb, setThumb] = useState<string | null>(null);
  const [full, setFull] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fileMeta(id, token, i18n.language)
      .then(async (m) => {
        if (!live) return;
        setMeta(m);
        if (m.thumbnail) {
          const url = await fileBlobUrl(id, true, token, i18n.language);
          if (live) setThumb(url);
        }
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [id, token, i18n.language]);
  if (failed) return <Typography.Text type="secondary">{t('screens.files.unavailable')}</Typography.Text>;
  if (!meta) return <span aria-busy style={{ display: 'inline-block', width: size, height: size }} />;
  if (meta.thumbnail && thumb)
    return (
      <Image
        src={thumb}
        alt={label ? `${label}: ${meta.name}` : meta.name}
        width={size}
        height={size}
        style={{ objectFit: 'cover', borderRadius: 4 }}
        data-file-id={id}
        preview={{
          src: full ?? thumb,
          onOpenChange: (open: boolean) => {
            if (open && !full) void fileBlobUrl(id, false, token, i18n.language).then(setFull, () => undefined);
          },
        }}
      />
    );
  const download = async () => {
    const url = await fileBlobUrl(id, false, token, i18n.language);
    const a = document.createElement('a');
    a.href = url;
    a.download = meta.name;
    a.click();
  };
  return (
    <Typography.Link onClick={() => void download()} aria-label={t('screens.files.open', { name: meta.name })} data-file-id={id}>
      <FileOutlined /> {meta.name}
    </Typography.Link>
  );
}

/** The files of a value, for cells (small, the first few) and details (every one). */
export function FileList({ value, size = 48, max, label }: { value: unknown; size?: number; max?: number; label?: string }) {
  const ids = idsOf(value);
  if (!ids.length) return null;
  const shown = max ? ids.slice(0, max) : ids;
  return (
    <Image.PreviewGroup>
      <Space size={4} wrap data-files={ids.join(',')}>
        {shown.map((id) => (
          <StoredFile key={id} id={id} size={size} label={label} />
        ))}
        {ids.length > shown.length ? <Typography.Text type="secondary">+{ids.length - shown.length}</Typography.Text> : null}
      </Space>
    </Image.PreviewGroup>
  );
}

