import { UserOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { MenuDrawer, MenuDrawerButton } from '../components/MenuDrawer';
import { SiteBrand } from '../components/SiteBrand';
import { useIsPhone } from '../components/useIsPhone';
import { useCurrentUser } from '../features/account/api';
import { TOP_MENU } from './menu';
import { personalPath, siteVariant } from './site';

/**
 * Header of the public site: brand, top menu (spec section 1), language switch and account. On a
 * phone the header keeps the menu button, the whole site title and the user's name (or Log in);
 * the top menu, the language switch and Register move into a drawer.
 */
export function PublicLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: user } = useCurrentUser();
  const isPhone = useIsPhone();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const selected = pathname === '/' || pathname === '/index' ? '/' : `/${pathname.split('/')[1]}`;
  const items = [
    ...TOP_MENU.map(({ path, labelKey }) => ({ key: path.replace(/\/$/, '') || '/', label: <Link to={path}>{t(labelKey)}</Link> })),
    { key: '/personal', label: <a href={personalPath('/')}>{t('nav.personal')}</a> },
  ];
  const account = user ? (
    <a href={personalPath('/')} data-testid="header-user" style={{ display: 'inline-flex', alignItems: 'center', gap: 6, minWidth: 0, maxWidth: '100%' }}>
      <UserOutlined />
      <span data-testid="header-user-name" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {user.realname || user.username}
      </span>
    </a>
  ) : (
    <Button type="link" href={personalPath('/login')} style={{ paddingInline: isPhone ? 4 : undefined }}>
      {t('nav.login')}
    </Button>
  );
  const register = !user && (
    <Button type="primary" href={personalPath('/register')}>
      {t('nav.register')}
    </Button>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {isPhone ? (
        <Layout.Header
          style={{ display: 'flex', alignItems: 'center', gap: 8, background: '#fff', borderBottom: '1px solid #e5e9f0', paddingInline: 8, height: 'auto', minHeight: 64, lineHeight: 1.3 }}
        >
          <MenuDrawerButton open={drawerOpen} onOpen={() => setDrawerOpen(true)} />
          <div style={{ flex: 1, minWidth: 0, paddingBlock: 8 }}>
            <SiteBrand wrap />
          </div>
          <div style={{ flex: 'none', maxWidth: '45%', display: 'flex' }}>{account}</div>
        </Layout.Header>
      ) : (
        <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 24, background: '#fff', borderBottom: '1px solid #e5e9f0', paddingInline: 24 }}>
          <SiteBrand />
          <nav aria-label={t('nav.home')} style={{ flex: 1, minWidth: 0 }}>
            <Menu mode="horizontal" selectedKeys={[selected]} items={items} style={{ borderBottom: 'none' }} />
          </nav>
          <Space>
            <LanguageSwitch />
            {account}
            {register}
          </Space>
        </Layout.Header>
      )}
      <Layout.Content style={{ padding: isPhone ? '16px 12px' : '32px 24px', maxWidth: 1200, width: '100%', margin: '0 auto' }}>
        <Outlet />
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', color: '#667' }}>{t(`site.${siteVariant()}.title`)}</Layout.Footer>
      {isPhone && (
        <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)}>
          <nav aria-label={t('nav.home')}>
            <Menu mode="inline" selectedKeys={[selected]} items={items} onClick={() => setDrawerOpen(false)} style={{ borderInlineEnd: 'none' }} />
          </nav>
          <Space direction="vertical" style={{ padding: '8px 16px' }}>
            <LanguageSwitch />
            {register}
          </Space>
        </MenuDrawer>
      )}
    </Layout>
  );
}
