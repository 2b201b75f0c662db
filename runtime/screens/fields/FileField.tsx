/**
 * The form's upload box of a file field (docs/schema-language.md, "Field types of records").
 * The upload goes to POST /api/files?resource&field (antd's Upload: progress, remove, one
 * request per file); the server's refusal is shown on the file and under the field, in the
 * user's language. The console's own checks (type by the browser's guess, size) only spare a
 * doomed upload: the server recognises the file by its content.
 */
import { PlusOutlined } from '@ant-design/icons';
import { Typography, Upload } from 'antd';
import type { UploadFile, UploadProps } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tokenAtom } from '../../session/atoms.ts';
import { fileBlobUrl, fileMeta, idsOf, sizeText, typeNames, uploadUrl, type FileFieldOptions, type FileMeta } from './file-view.tsx';

interface Item extends UploadFile {
  fileId?: number;
}

/** The upload box of a file field: thumbnails, progress, the refusal on the file and the field, remove. */
export function FileUploadWidget(props: WidgetProps) {
  const { t, i18n } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const o = props.options as unknown as FileFieldOptions;
  const ids = idsOf(props.value);
  const [items, setItems] = useState<Item[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const idsKey = ids.join(',');

  // Stored ids the list does not show yet (a loaded record): their name and thumbnail.
  useEffect(() => {
    let live = true;
    const known = new Set(items.map((i) => i.fileId));
    const missing = ids.filter((id) => !known.has(id));
    if (!missing.length) return;
    void Promise.all(
      missing.map(async (id): Promise<Item> => {
        try {
          const m = await fileMeta(id, token, i18n.language);
          const thumbUrl = m.thumbnail ? await fileBlobUrl(id, true, token, i18n.language) : undefined;
          return { uid: `stored-${id}`, fileId: id, name: m.name, status: 'done', thumbUrl, type: m.type };
        } catch {
          return { uid: `stored-${id}`, fileId: id, name: `#${id}`, status: 'error', response: t('screens.files.unavailable') };
        }
      }),
    ).then((loaded) => {
      if (live) setItems((now) => [...now.filter((i) => i.fileId === undefined || ids.includes(i.fileId)), ...loaded.filter((l) => !now.some((n) => n.fileId === l.fileId))]);
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the ids
  }, [idsKey, token]);

  const types = typeNames(o.accept);
  const emit = (next: Item[]) => {
    const done = next.filter((i) => i.status === 'done' && i.fileId !== undefined).map((i) => i.fileId as number);
    props.onChange(done.length ? done : undefined);
  };

  const onChange: UploadProps['onChange'] = ({ file, fileList }) => {
    const next = (fileList as Item[]).map((f) => {
      if (f.uid !== file.uid) return f;
      if (file.status === 'done') {
        const body = file.response as { status?: number; data?: FileMeta } | undefined;
        if (body?.status === 200 && body.data) {
          const meta = body.data;
          const local = file.originFileObj && meta.thumbnail ? URL.createObjectURL(file.originFileObj) : undefined;
          return { ...f, fileId: meta.id, name: meta.name, thumbUrl: local, type: meta.type } as Item;
        }
      }
      if (file.status === 'error') {
        const body = file.response as { message?: string; data?: { errors?: { message: string }[] } } | string | undefined;
        const message = (typeof body === 'object' && (body?.data?.errors?.[0]?.message ?? body?.message)) || t('screens.files.failed', { name: file.name });
        setRefusal(message);
        return { ...f, response: message } as Item;
      }
      return f;
    });
    if (file.status === 'done' || file.status === 'uploading') setRefusal(null);
    setItems(next);
    if (file.status !== 'uploading') emit(next);
  };

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (file.type && !o.accept.includes(file.type)) {
      setRefusal(t('screens.files.wrongType', { name: file.name, types }));
      return Upload.LIST_IGNORE;
    }
    if (file.size > o.maxBytes) {
      setRefusal(t('screens.files.tooLarge', { name: file.name, max: sizeText(o.maxBytes) }));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const disabled = props.disabled || props.readonly;
  const hdrs = useMemo(() => ({ ...(token ? { Authorization: token } : {}), 'Accept-Language': i18n.language, Accept: 'application/json' }), [token, i18n.language]);
  return (
    <div data-file-field={o.field}>
      <Upload
        id={props.id}
        name="file"
        action={uploadUrl(o.resource, o.field)}
        headers={hdrs}
        accept={o.accept.join(',')}
        listType="picture-card"
        fileList={items}
        maxCount={o.maxFiles}
        multiple={o.maxFiles > 1}
        disabled={disabled}
        beforeUpload={beforeUpload}
        onChange={onChange}
        onPreview={(file) => {
          const id = (file as Item).fileId;
          if (id !== undefined)
            void fileBlobUrl(id, false, token, i18n.language).then((url) => {
              window.open(url, '_blank', 'noopener');
            });
        }}
        showUploadList={{ showRemoveIcon: !disabled, removeIcon: undefined }}
        locale={{ uploading: t('screens.files.uploading'), removeFile: t('screens.files.remove'), uploadError: t('screens.files.failed', { name: '' }).trim(), previewFile: t('screens.files.open', { name: '' }).trim() }}
      >
        {!disabled && items.length < o.maxFiles ? (
          <button type="button" aria-label={`${props.label}: ${t('screens.files.upload')}`} style={{ border: 0, background: 'none', cursor: 'pointer' }}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>{t('screens.files.upload')}</div>
          </button>
        ) : null}
      </Upload>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('screens.files.hint', { types, max: sizeText(o.maxBytes), count: o.maxFiles })}
      </Typography.Text>
      {refusal ? (
        <div role="alert" className="ant-form-item-explain-error" data-file-refusal style={{ color: 'var(--ant-color-error, #ff4d4f)' }}>
          {refusal}
        </div>
      ) : null}
    </div>
  );
}
