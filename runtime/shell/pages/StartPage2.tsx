import { ApartmentOutlined, BankOutlined, ExperimentOutlined, HomeOutlined, ShopOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Space, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_PATH, LOGIN_PATH } from '../../routing/access.ts';
import { tokenAtom } from '../../session/atoms.ts';
import { LanguageSwitch } from '../layout/LanguageSwitch.tsx';

const ROLES = [
  { key: 'farm', icon: <HomeOutlined aria-hidden /> },
  { key: 'manufacturer', icon: <ShopOutlined aria-hidden /> },
  { key: 'center', icon: <BankOutlined aria-hidden /> },
  { key: 'nursery', icon: <ExperimentOutlined aria-hidden /> },
  { key: 'provider', icon: <TeamOutlined aria-hidden /> },
  { key: 'consumer', icon: <ApartmentOutlined aria-hidden /> },
] as const;

/** /startpage2: the alternative landing page, by the people the platform serves (after login, spec 2.1). */
export function StartPage2() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  return (
    <div style={{ minHeight: '100vh', background: '#f6faf7' }}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '16px 32px', background: '#1f5f36' }}>
        <Space align="center">
          <img src="/logo.svg" alt="" width={32} height={32} />
          <Typography.Text strong style={{ color: '#fff' }}>
            {t('app.name')}
          </Typography.Text>
        </Space>
        <LanguageSwitch />
      </header>
      <main style={{ maxWidth: 1080, margin: '0 auto', padding: '48px 24px' }}>
        <Typography.Title level={1}>{t('start2.title')}</Typography.Title>
        <Typography.Paragraph style={{ fontSize: 16, maxWidth: 760 }}>{t('start2.description')}</Typography.Paragraph>
        <Link to={token ? HOME_PATH : LOGIN_PATH}>
          <Button type="primary" size="large">
            {token ? t('start.dashboard') : t('start.login')}
          </Button>
        </Link>
        <Row gutter={[16, 16]} style={{ marginTop: 40 }}>
          {ROLES.map((r) => (
            <Col xs={24} sm={12} lg={8} key={r.key}>
              <Card>
                <Space align="start">
                  <span style={{ fontSize: 22, color: '#2f8f4e' }}>{r.icon}</span>
                  <div>
                    <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
                      {t(`start2.roles.${r.key}.title`)}
                    </Typography.Title>
                    <Typography.Text type="secondary">{t(`start2.roles.${r.key}.text`)}</Typography.Text>
                  </div>
                </Space>
              </Card>
            </Col>
          ))}
        </Row>
      </main>
    </div>
  );
}
