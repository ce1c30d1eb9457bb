import { Button, Card, Col, Empty, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { personalPath } from '../../app/site';
import { hasSessionCookie, useCurrentUser } from '../account/api';

/**
 * Home: what the portal is, and the hot and most-viewed data lists. No dataset can be published
 * before the metadata and review features exist, so the lists show their empty state.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  // While the user is being asked for, the session cookie already tells which button to show.
  const signedIn = user === undefined ? hasSessionCookie() : user !== null;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card style={{ background: 'linear-gradient(120deg, #0b4f8a, #2a7fc1)', color: '#fff' }}>
        <Typography.Title level={1} style={{ color: '#fff', marginTop: 0 }}>
          {t('home.welcome')}
        </Typography.Title>
        <Typography.Paragraph style={{ color: '#e8f1fb', fontSize: 16, maxWidth: 760 }}>{t('home.intro')}</Typography.Paragraph>
        <Space wrap>
          <Button size="large" href={personalPath('/metadata/add')}>
            {t('home.getStarted')}
          </Button>
          {/* Signed in, the way into the personal centre; otherwise its login screen. */}
          <Button size="large" ghost href={personalPath(signedIn ? '/' : '/login')}>
            {signedIn ? t('home.openPersonal') : t('home.signIn')}
          </Button>
        </Space>
      </Card>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={14}>
          <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('home.hotData')}</h2>}>
            <Empty description={t('home.noData')} />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('home.viewedData')}</h2>}>
            <Empty description={t('home.noData')} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
