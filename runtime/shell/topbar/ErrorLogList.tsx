import { Empty, Table, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { errorLogAtom, type ErrorLogEntry } from '../../errors/error-log.ts';
import { formatDateTime } from '../../format/locale.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../../i18n/languages.ts';

const pre = { whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0, fontSize: 12, maxHeight: 240, overflow: 'auto' } as const;

/** Every recorded UI error, newest first: message, component info, url and stack (spec 2.6, 8). */
export function ErrorLogList() {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const entries = useAtomValue(errorLogAtom);
  if (entries.length === 0) return <Empty description={t('shell.errorLog.empty')} />;
  return (
    <Table<ErrorLogEntry>
      rowKey="id"
      size="small"
      data-testid="error-log-table"
      dataSource={[...entries].reverse()}
      pagination={entries.length > 10 ? { pageSize: 10 } : false}
      scroll={{ x: 900 }}
      columns={[
        {
          title: t('shell.errorLog.message'),
          dataIndex: 'message',
          width: 240,
          render: (message: string, row) => (
            <>
              <Typography.Text type="danger" strong>
                {message}
              </Typography.Text>
              <div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatDateTime(row.time, lang)}
                </Typography.Text>
              </div>
            </>
          ),
        },
        { title: t('shell.errorLog.info'), dataIndex: 'info', width: 220, render: (info: string) => <pre style={pre}>{info}</pre> },
        { title: t('shell.errorLog.url'), dataIndex: 'url', width: 200, render: (url: string) => <span style={{ wordBreak: 'break-all' }}>{url}</span> },
        { title: t('shell.errorLog.stack'), dataIndex: 'stack', render: (stack: string) => <pre style={pre}>{stack}</pre> },
      ]}
    />
  );
}
