import { Card, Descriptions, Empty, List, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isLanguage, pickText, DEFAULT_LANGUAGE } from '../../i18n/languages.ts';
import { menuLink } from '../../routing/route-table.ts';
import { permissionMenuAtom, userInfoAtom } from '../../session/atoms.ts';
import { organisationKind } from '../../session/user-info.ts';

/** /dashboard: a welcome with the user's name and organisation, and the sections they may use. */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const info = useAtomValue(userInfoAtom);
  const menu = useAtomValue(permissionMenuAtom).filter((m) => !m.hidden);
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  if (!info) return null;
  const kind = organisationKind(info);
  const organisation = [kind ? t(`org.${kind}`) : t('dashboard.organisationNone'), info.farmName ?? info.groupName].filter(Boolean).join(' · ');

  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 24 }} data-testid="welcome">
        {t('dashboard.welcome', { name: info.name })}
      </Typography.Title>
      <Card style={{ marginBottom: 24 }}>
        <Descriptions column={1}>
          <Descriptions.Item label={t('dashboard.organisation')}>
            <span data-testid="organisation">{organisation}</span>
          </Descriptions.Item>
        </Descriptions>
        {info.description && <Typography.Paragraph type="secondary">{info.description}</Typography.Paragraph>}
      </Card>
      <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('dashboard.sections')}</h2>}>
        {menu.length === 0 ? (
          <Empty description={t('dashboard.noSections')} />
        ) : (
          <List
            grid={{ gutter: 16, xs: 1, sm: 2, md: 3, lg: 4 }}
            dataSource={menu}
            renderItem={(entry) => {
              const first = entry.children.find((c) => !c.hidden);
              return (
                <List.Item>
                  <Link to={first ? menuLink(entry.path, first.path) : menuLink(entry.path)}>{pickText(entry.title, language)}</Link>
                </List.Item>
              );
            }}
          />
        )}
      </Card>
    </>
  );
}
