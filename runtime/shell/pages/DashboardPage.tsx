import { Card, Col, Descriptions, Empty, List, Row, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isLanguage, pickText, DEFAULT_LANGUAGE } from '../../i18n/languages.ts';
import { menuLink } from '../../routing/route-table.ts';
import { permissionMenuAtom, userInfoAtom } from '../../session/atoms.ts';
import { organisationKind } from '../../session/user-info.ts';
import { useServices } from '../../services/context.ts';

interface Mine {
  tasks: { id: number; title: string; dueOn: string | null; groupName: string | null; overdue: boolean }[];
  notices: { id: number; title: string; createdAt: string }[];
}

/** /dashboard: a welcome with the user's name and organisation, shortcuts to the sections they may use, their open tasks and unread notices. */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const info = useAtomValue(userInfoAtom);
  const menu = useAtomValue(permissionMenuAtom).filter((m) => !m.hidden);
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const { data, profile } = useServices();
  const [mine, setMine] = useState<Mine | null>(null);
  useEffect(() => {
    let live = true;
    data
      .call<Mine>('dashboardMine', { quiet: true })
      .then((env) => {
        if (live && env.data) setMine(env.data);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [data]);
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
      <Row gutter={16} style={{ marginTop: 24 }}>
        <Col xs={24} md={12}>
          <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('dashboard.tasks')}</h2>} data-testid="my-tasks">
            <List
              locale={{ emptyText: <Typography.Text>{t('dashboard.noTasks')}</Typography.Text> }}
              dataSource={mine?.tasks ?? []}
              renderItem={(task) => (
                <List.Item>
                  <span>
                    {task.title}
                    {task.groupName ? <Typography.Text type="secondary"> · {task.groupName}</Typography.Text> : null}
                  </span>
                  <span>
                    {task.dueOn}
                    {task.overdue ? <Tag color="red" style={{ marginInlineStart: 8 }}>{t('dashboard.overdue')}</Tag> : null}
                  </span>
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('dashboard.notices')}</h2>} extra={<Link to={profile.noticePath}>{t('dashboard.allNotices')}</Link>} data-testid="my-notices">
            <List
              locale={{ emptyText: <Typography.Text>{t('dashboard.noNotices')}</Typography.Text> }}
              dataSource={mine?.notices ?? []}
              renderItem={(notice) => (
                <List.Item>
                  <span>{notice.title}</span>
                  <Typography.Text type="secondary">{notice.createdAt.slice(0, 10)}</Typography.Text>
                </List.Item>
              )}
            />
          </Card>
        </Col>
      </Row>
    </>
  );
}
