import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_PATH } from '../../routing/access.ts';

/** 401: a route the user's menu codes do not grant. */
export function UnauthorizedPage({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation();
  const result = (
    <Result
      status="403"
      title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('unauthorized.title')}</h1>}
      subTitle={t('unauthorized.text')}
      extra={
        <Link to={HOME_PATH}>
          <Button type="primary">{t('unauthorized.back')}</Button>
        </Link>
      }
    />
  );
  return embedded ? result : <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>{result}</main>;
}
