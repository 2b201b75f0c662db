/**
 * The dialog of an `import` action (docs/import.md): a template to download (an .xlsx
 * whose headers are the fields' titles in the user's language), a file to choose, the
 * server's preview of every row with the invalid cells highlighted and their sentences
 * on the cell (or on the row), then «import all» (only while no row is invalid) or
 * «import only the valid rows». Nothing is read or validated here: the server does it,
 * exactly as a create, so the preview says what the import will do. Where the resource has
 * an import key (a goods code), «update existing records» makes a row naming a record of the
 * farm update it; the preview tags those rows.
 */
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Checkbox, Flex, Modal, Table, Tag, Tooltip, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import writeXlsxFile from 'write-excel-file/browser';
import { isHttpError } from '../http/errors.ts';
import type { FieldError } from '../protocol/envelope.ts';
import { importableFields, importHeader, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, type ImportMode } from '../schema/resource-import.ts';
import type { ImportAction } from '../schema/screen.ts';
import { textOf, type I18nText } from '../schema/texts.ts';
import { useServices } from '../services/context.ts';
import { download, safeFileName } from './export.ts';
import { useLang, useScreenHost } from './host.ts';

export interface ImportRowReply {
  row: number;
  ok: boolean;
  /** The row updates the record its key names (with «update existing records»). */
  updated?: boolean;
  cells: Record<string, string>;
  errors: FieldError[];
}

export interface ImportReply {
  mode: ImportMode;
  total: number;
  valid: number;
  invalid: number;
  imported: number;
  updated?: number;
  columns: { header: string; field: string | null }[];
  ignoredColumns: string[];
  rows: ImportRowReply[];
}

export interface ImportDialogProps {
  action: ImportAction;
  /** The table's resource (the action's own when it names one). */
  resource: string;
  /** The table's title: the dialog's and the template's name. */
  title: I18nText;
  onClose: () => void;
  /** After records were imported. */
  onImported: () => void;
}

/** The file's bytes as Base64, in chunks (a 5 MB file is too long for one call of fromCharCode). */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Thousands of rows are thousands of creates: minutes on a busy embedded database, not the client's 20 s. */
const IMPORT_TIMEOUT_MS = 300_000;

/** The top-level field a problem is about ("categories.1" is about "categories"). */
const fieldOf = (e: FieldError) => e.field.split('.')[0];

export function ImportDialog({ action, resource, title, onClose, onImported }: ImportDialogProps) {
  const lang = useLang();
  const { t } = useTranslation();
  const host = useScreenHost();
  const { data, access } = useServices();
  const { message } = AntApp.useApp();
  const doc = host.registry.resource(resource);
  const name = textOf(action.fileName ?? title, lang);
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [preview, setPreview] = useState<ImportReply | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<ImportMode | null>(null);
  const [update, setUpdate] = useState(false);
  const mb = IMPORT_MAX_BYTES / 1024 / 1024;
  // Offered where the resource has a key and the user may update its records (the server checks both).
  const keyTitle = doc?.importKey && access.can(doc, 'update') ? (doc.record.properties[doc.importKey]?.['x-title']?.[lang] ?? doc.importKey) : null;

  const send = async (mode: ImportMode, content: string, fileName: string, updating = update) => {
    const body = { mode, fileName, content, ...(updating ? { update: true } : {}) };
    const reply = await data.mutate<ImportReply>({ registry: host.registry, source: { resource, operation: 'import' }, body, quiet: true, timeoutMs: IMPORT_TIMEOUT_MS });
    return reply.data;
  };

  /** Switching «update existing records» judges the chosen file again. */
  const toggleUpdate = async (next: boolean) => {
    setUpdate(next);
    if (!file) return;
    setBusy('preview');
    setProblem(null);
    try {
      setPreview(await send('preview', file.content, file.name, next));
    } catch (e) {
      setProblem(isHttpError(e) ? (e.fieldErrors[0]?.message ?? e.serverMessage ?? t('screens.import.failed')) : t('screens.import.failed'));
    } finally {
      setBusy(null);
    }
  };

  const choose = async (chosen: File) => {
    setPreview(null);
    setProblem(null);
    setFile(null);
    if (chosen.size > IMPORT_MAX_BYTES) return setProblem(t('screens.import.tooLarge', { mb }));
    setBusy('preview');
    try {
      const content = await base64Of(chosen);
      setFile({ name: chosen.name, content });
      setPreview(await send('preview', content, chosen.name));
    } catch (e) {
      setProblem(isHttpError(e) ? (e.fieldErrors[0]?.message ?? e.serverMessage ?? t('screens.import.failed')) : t('screens.import.failed'));
    } finally {
      setBusy(null);
    }
  };

  const run = async (mode: 'all' | 'validOnly') => {
    if (!file) return;
    setBusy(mode);
    try {
      const reply = await send(mode, file.content, file.name);
      void message.success(
        reply.updated ? t('screens.import.importedUpdates', { count: reply.imported, created: reply.imported - reply.updated, updated: reply.updated }) : t('screens.import.imported', { count: reply.imported }),
      );
      onImported();
      onClose();
    } catch (e) {
      // The data changed since the preview (a code taken meanwhile): the server's sentence, and a fresh preview.
      setProblem(isHttpError(e) ? (e.serverMessage ?? t('screens.import.failed')) : t('screens.import.failed'));
      try {
        setPreview(await send('preview', file.content, file.name));
      } catch {
        /* the problem above stays */
      }
    } finally {
      setBusy(null);
    }
  };

  const template = async () => {
    if (!doc) return;
    const fields = action.fields ?? importableFields(doc);
    const headers = fields.map((f) => ({ value: importHeader(doc, f, lang), fontWeight: 'bold' as const }));
    const blob = await writeXlsxFile([headers], { columns: fields.map(() => ({ width: 18 })) }).toBlob();
    download(blob, safeFileName(name, 'xlsx'));
  };

  const columns = useMemo(() => {
    if (!preview || !doc) return [];
    const mapped = preview.columns.filter((c): c is { header: string; field: string } => !!c.field);
    return [
      { key: '_row', title: t('screens.import.row'), width: 70, render: (_: unknown, r: ImportRowReply) => r.row },
      ...mapped.map((c) => ({
        key: c.field,
        title: doc.record.properties[c.field]?.['x-title']?.[lang] ?? c.header,
        onCell: (r: ImportRowReply) => {
          const bad = r.errors.some((e) => fieldOf(e) === c.field);
          return bad ? { className: 'import-cell-invalid', style: { background: '#fff1f0' }, 'data-invalid': 'true' } : {};
        },
        render: (_: unknown, r: ImportRowReply) => {
          const errors = r.errors.filter((e) => fieldOf(e) === c.field);
          return (
            <Flex vertical gap={2}>
              <span>{r.cells[c.field] ?? ''}</span>
              {errors.map((e, i) => (
                <Typography.Text key={i} type="danger" style={{ fontSize: 12 }}>
                  {e.message}
                </Typography.Text>
              ))}
            </Flex>
          );
        },
      })),
      {
        key: '_status',
        title: t('screens.import.status'),
        width: 160,
        render: (_: unknown, r: ImportRowReply) => {
          // Problems on no column of the file (a required field without a column, a rule of the whole row).
          const shown = new Set(mapped.map((c) => c.field));
          const rest = r.errors.filter((e) => !shown.has(fieldOf(e)));
          return (
            <Flex vertical gap={2}>
              {r.ok ? <Tag color={r.updated ? 'blue' : 'green'}>{t(r.updated ? 'screens.import.willUpdate' : 'screens.import.ok')}</Tag> : <Tag color="red">{t('screens.import.invalid')}</Tag>}
              {rest.map((e, i) => (
                <Typography.Text key={i} type="danger" style={{ fontSize: 12 }}>
                  {e.message}
                </Typography.Text>
              ))}
            </Flex>
          );
        },
      },
    ];
  }, [preview, doc, lang, t]);

  const invalid = preview ? preview.invalid : 0;
  const importAll = (
    <Button type="primary" disabled={!preview || invalid > 0 || busy !== null} loading={busy === 'all'} onClick={() => void run('all')}>
      {t('screens.import.importAll')}
    </Button>
  );
  return (
    <Modal
      open
      width={960}
      title={t('screens.import.title', { name: textOf(title, lang) })}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('screens.cancel')}</Button>
          {preview && invalid > 0 && preview.valid > 0 ? (
            <Button disabled={busy !== null} loading={busy === 'validOnly'} onClick={() => void run('validOnly')}>
              {t('screens.import.importValid', { count: preview.valid })}
            </Button>
          ) : null}
          {preview && invalid > 0 ? <Tooltip title={t('screens.import.importAllHint')}>{importAll}</Tooltip> : importAll}
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('screens.import.templateHint', { mb, rows: IMPORT_MAX_ROWS })}</Typography.Text>
        <Flex gap={8} wrap align="center">
          <Button icon={<DownloadOutlined />} onClick={() => void template()}>
            {t('screens.import.template')}
          </Button>
          <Upload
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            showUploadList={false}
            maxCount={1}
            beforeUpload={(f) => {
              void choose(f);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={busy === 'preview'}>
              {t('screens.import.choose')}
            </Button>
          </Upload>
          {file ? <Typography.Text>{t('screens.import.chosen', { name: file.name })}</Typography.Text> : null}
        </Flex>
        {keyTitle ? (
          <Checkbox checked={update} disabled={busy !== null} onChange={(e) => void toggleUpdate(e.target.checked)}>
            {t('screens.import.updateExisting', { key: keyTitle })}
          </Checkbox>
        ) : null}
        {problem ? <Alert type="error" showIcon title={problem} role="alert" /> : null}
        {preview ? (
          <>
            <Alert
              type={invalid ? 'warning' : 'success'}
              showIcon
              title={
                (invalid ? t('screens.import.summary', { total: preview.total, valid: preview.valid, invalid }) : t('screens.import.allValid', { total: preview.total })) +
                (preview.updated ? t('screens.import.updatesPart', { updated: preview.updated }) : '')
              }
              description={preview.ignoredColumns.length ? t('screens.import.ignored', { columns: preview.ignoredColumns.join(lang === 'zh' ? '、' : ', ') }) : undefined}
            />
            <Table<ImportRowReply>
              size="small"
              rowKey="row"
              columns={columns}
              dataSource={preview.rows}
              pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
              rowClassName={(r) => (r.ok ? '' : 'import-row-invalid')}
              scroll={{ x: 'max-content' }}
            />
          </>
        ) : null}
      </Flex>
    </Modal>
  );
}
