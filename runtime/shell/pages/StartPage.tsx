import { CloudServerOutlined, ExperimentOutlined, ReadOutlined, ShopOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Space, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_PATH, LOGIN_PATH } from '../../routing/access.ts';
import { tokenAtom } from '../../session/atoms.ts';
import { LanguageSwitch } from '../layout/LanguageSwitch.tsx';

const FEATURES = [
  { key: 'planting', icon: <ExperimentOutlined aria-hidden /> },
  { key: 'materials', icon: <ShopOutlined aria-hidden /> },
  { key: 'equipment', icon: <CloudServerOutlined aria-hidden /> },
  { key: 'knowledge', icon: <ReadOutlined aria-hidden /> },
] as const;

/** The public landing page (the empty path leads here, spec 2.1). */
export function StartPage() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  return (
    <div style={{ minHeight: '100vh', background: 'linear-gradient(160deg, #e8f5ec 0%, #ffffff 70%)' }}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '16px 32px' }}>
        <Space align="center">
          <img src="/logo.svg" alt="" width={32} height={32} />
          <Typography.Text strong>{t('app.name')}</Typography.Text>
        </Space>
        <LanguageSwitch />
      </header>
      <main style={{ maxWidth: 960, margin: '0 auto', padding: '64px 24px' }}>
        <Typography.Title level={1}>{t('start.title')}</Typography.Title>
        <Typography.Paragraph style={{ fontSize: 16, maxWidth: 720 }}>{t('start.description')}</Typography.Paragraph>
        <Link to={token ? HOME_PATH : LOGIN_PATH}>
          <Button type="primary" size="large">
            {token ? t('start.dashboard') : t('start.login')}
          </Button>
        </Link>
        <Row gutter={[16, 16]} style={{ marginTop: 48 }}>
          {FEATURES.map((f) => (
            <Col xs={24} sm={12} key={f.key}>
              <Card>
                <Space align="start">
                  <span style={{ fontSize: 22, color: '#2f8f4e' }}>{f.icon}</span>
                  <Typography.Text>{t(`start.features.${f.key}`)}</Typography.Text>
                </Space>
              </Card>
            </Col>
          ))}
        </Row>
      </main>
    </div>
  );
}
