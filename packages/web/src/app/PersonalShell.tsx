import {
  AuditOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DownOutlined,
  ExperimentOutlined,
  FolderOpenOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Layout, Menu, Space, Tooltip, type MenuProps } from 'antd';
import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { MENU_WIDTH, type User } from '@portal/shared';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { PageSpinner } from '../components/PageSpinner';
import { SiteBrand } from '../components/SiteBrand';
import { signOut } from '../features/account/api';
import { pageLanguage } from './i18n';
import { groupForPath, TOP_MENU, visibleMenu, type MenuEntry } from './menu';
import { sitePath } from './site';

const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  orders: <ShoppingCartOutlined />,
  metadata: <DatabaseOutlined />,
  analysis: <ExperimentOutlined />,
  review: <AuditOutlined />,
  projects: <FolderOpenOutlined />,
  profile: <UserOutlined />,
  settings: <SettingOutlined />,
};

/** The personal centre: header, collapsible left menu and the routed page (spec section 2). */
export function PersonalShell({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  const entries = useMemo(() => visibleMenu(user, pageLanguage), [user]);
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  // Open the group of the page shown, also when the address changes without a reload.
  useEffect(() => {
    const group = groupForPath(entries, pathname);
    if (group) setOpenKeys((keys) => (keys.includes(group) ? keys : [...keys, group]));
  }, [entries, pathname]);

  const unavailable = t('menu.unavailable');
  const toItem = (entry: MenuEntry): NonNullable<MenuProps['items']>[number] => {
    if (entry.kind === 'group') {
      return {
        key: entry.key,
        icon: ICONS[entry.icon],
        label: t(entry.labelKey),
        children: entry.items.map((item) => ({
          key: `${entry.key}:${item.path}`,
          disabled: !item.available,
          label: item.available ? t(item.labelKey) : <Tooltip title={unavailable} placement="right">{t(item.labelKey)}</Tooltip>,
        })),
      };
    }
    return { key: `:${entry.path}`, icon: ICONS[entry.icon], label: t(entry.labelKey), disabled: !entry.available };
  };

  const selectedKeys = entries.flatMap((entry) =>
    entry.kind === 'group'
      ? entry.items.filter((item) => item.path === pathname).map((item) => `${entry.key}:${item.path}`)
      : entry.path === pathname
        ? [`:${entry.path}`]
        : [],
  );

  const accountMenu: MenuProps['items'] = [
    { key: 'personal', label: t('nav.personal'), onClick: () => navigate('/') },
    ...(user.is_staff ? [{ key: 'admin', label: <a href={sitePath('/admin/')}>{t('nav.admin')}</a> }] : []),
    { type: 'divider' as const },
    { key: 'logout', label: t('nav.signOut'), onClick: () => void signOut(t('account.logoutDone')) },
  ];

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 16, background: '#0b4f8a', color: '#fff', paddingInline: 16 }}>
        <div style={{ flex: 1, minWidth: 0, color: '#fff' }}>
          <SiteBrand />
        </div>
        <Space size="middle">
          <nav aria-label={t('nav.home')} style={{ display: 'flex', gap: 20 }}>
            {TOP_MENU.map(({ path, labelKey }) => (
              <a key={path} href={sitePath(path)} style={{ color: '#dbe9f7', whiteSpace: 'nowrap' }}>
                {t(labelKey)}
              </a>
            ))}
            <a href={sitePath('/personal/')} style={{ color: '#fff', fontWeight: 600, whiteSpace: 'nowrap' }} aria-current="page">
              {t('nav.personal')}
            </a>
          </nav>
          <LanguageSwitch dark />
          <Dropdown menu={{ items: accountMenu }} trigger={['click']}>
            <Button type="text" style={{ color: '#fff' }} data-testid="header-user">
              <UserOutlined /> {user.realname || user.username} <DownOutlined />
            </Button>
          </Dropdown>
        </Space>
      </Layout.Header>
      <Layout>
        <Layout.Sider
          width={MENU_WIDTH.expanded}
          collapsedWidth={MENU_WIDTH.collapsed}
          collapsed={collapsed}
          theme="light"
          style={{ borderRight: '1px solid #e5e9f0' }}
        >
          <Button
            type="text"
            block
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={() => setCollapsed(!collapsed)}
            aria-label={collapsed ? t('menu.expand') : t('menu.collapse')}
            style={{ height: 48 }}
          />
          <nav aria-label={t('nav.personal')}>
            <Menu
              mode="inline"
              items={entries.map(toItem)}
              selectedKeys={selectedKeys}
              openKeys={collapsed ? undefined : openKeys}
              onOpenChange={setOpenKeys}
              onClick={({ key }) => navigate(key.slice(key.indexOf(':') + 1))}
            />
          </nav>
        </Layout.Sider>
        <Layout.Content style={{ padding: 24, minWidth: 0 }}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

