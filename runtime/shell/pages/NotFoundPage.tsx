import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_PATH, START_PATH } from '../../routing/access.ts';
import { useAtomValue } from 'jotai';
import { tokenAtom } from '../../session/atoms.ts';

/** 404: a full page on its own, or the content area inside the console layout (`embedded`). */
export function NotFoundPage({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const result = (
    <Result
      status="404"
      title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('notFound.title')}</h1>}
      subTitle={t('notFound.text')}
      extra={
        <Link to={token ? HOME_PATH : START_PATH}>
          <Button type="primary">{t('notFound.back')}</Button>
        </Link>
      }
    />
  );
  return embedded ? result : <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>{result}</main>;
}
