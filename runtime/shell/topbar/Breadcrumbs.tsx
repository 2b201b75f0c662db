import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Crumb } from '../breadcrumbs.ts';

export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('shell.breadcrumbs')} style={{ minWidth: 0, overflow: 'hidden' }} data-testid="breadcrumbs">
      <Breadcrumb
        items={crumbs.map((c, i) => ({
          key: `${i}`,
          title: c.path ? <Link to={c.path}>{c.title}</Link> : <span aria-current={i === crumbs.length - 1 ? 'page' : undefined}>{c.title}</span>,
        }))}
      />
    </nav>
  );
}
