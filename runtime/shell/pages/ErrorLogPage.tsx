import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorLogList } from '../topbar/ErrorLogList.tsx';

/** /errorLog: the same list as the top bar's dialog, on a page of its own (reachable on mobile too). */
export function ErrorLogPage() {
  const { t } = useTranslation();
  return (
    <Card title={<Typography.Title level={1} style={{ fontSize: 18, margin: 0 }}>{t('shell.errorLog.title')}</Typography.Title>}>
      <ErrorLogList />
    </Card>
  );
}
