import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** What ErrorBoundary shows instead of a page that failed: a localised failure with a retry. */
export default function ErrorFallback({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('shell.errorBoundary.title')}</h1>}
      subTitle={t('shell.errorBoundary.text')}
      extra={
        <Button type="primary" onClick={retry}>
          {t('shell.errorBoundary.retry')}
        </Button>
      }
    />
  );
}
