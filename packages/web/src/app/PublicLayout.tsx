import { UserOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { SiteBrand } from '../components/SiteBrand';
import { useCurrentUser } from '../features/account/api';
import { TOP_MENU } from './menu';
import { personalPath, siteVariant } from './site';

/** Header of the public site: brand, top menu (spec section 1), language switch and account. */
export function PublicLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: user } = useCurrentUser();
  const selected = pathname === '/' || pathname === '/index' ? '/' : `/${pathname.split('/')[1]}`;
  const items = [
    ...TOP_MENU.map(({ path, labelKey }) => ({ key: path.replace(/\/$/, '') || '/', label: <Link to={path}>{t(labelKey)}</Link> })),
    { key: '/personal', label: <a href={personalPath('/')}>{t('nav.personal')}</a> },
  ];
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 24, background: '#fff', borderBottom: '1px solid #e5e9f0', paddingInline: 24 }}>
        <SiteBrand />
        <nav aria-label={t('nav.home')} style={{ flex: 1, minWidth: 0 }}>
          <Menu mode="horizontal" selectedKeys={[selected]} items={items} style={{ borderBottom: 'none' }} />
        </nav>
        <Space>
          <LanguageSwitch />
          {user ? (
            <a href={personalPath('/')} data-testid="header-user">
              <UserOutlined /> {user.realname || user.username}
            </a>
          ) : (
            <>
              <Button type="link" href={personalPath('/login')}>
                {t('nav.login')}
              </Button>
              <Button type="primary" href={personalPath('/register')}>
                {t('nav.register')}
              </Button>
            </>
          )}
        </Space>
      </Layout.Header>
      <Layout.Content style={{ padding: '32px 24px', maxWidth: 1200, width: '100%', margin: '0 auto' }}>
        <Outlet />
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', color: '#667' }}>{t(`site.${siteVariant()}.title`)}</Layout.Footer>
    </Layout>
  );
}
