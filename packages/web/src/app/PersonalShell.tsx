import {
  AuditOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DownOutlined,
  FolderOpenOutlined,
  LineChartOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Divider, Dropdown, Layout, Menu, type MenuProps } from 'antd';
import { Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { MENU_WIDTH, type User } from '@portal/shared';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { MenuDrawer } from '../components/MenuDrawer';
import { MenuDrawerButton } from '../components/MenuDrawerButton';
import { PageSpinner } from '../components/PageSpinner';
import { SiteBrand } from '../components/SiteBrand';
import { useIsPhone } from '../components/useIsPhone';
import { signOut } from '../features/account/api';
import { pageLanguage } from './i18n';
import { groupForPath, visibleMenu, type MenuEntry } from './menu';
import { sitePath, TOP_MENU } from './site';

const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  orders: <ShoppingCartOutlined />,
  metadata: <DatabaseOutlined />,
  review: <AuditOutlined />,
  projects: <FolderOpenOutlined />,
  analysis: <LineChartOutlined />,
  profile: <UserOutlined />,
  settings: <SettingOutlined />,
};

/**
 * The personal centre: header, left menu and the routed page (spec section 2). On a desktop the menu
 * is a collapsible side bar; on a phone it sits in a drawer behind the header's menu button, with the
 * site's links and the language switch, so that the header holds the button, the logo and the user.
 */
export function PersonalShell({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isPhone = useIsPhone();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const entries = useMemo(() => visibleMenu(user, pageLanguage), [user]);
  // Open the group of the page shown, also when the address changes without a reload (set while
  // rendering when the group changes, React's way to follow a prop without an effect's second render).
  const group = groupForPath(entries, pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(group ? [group] : []);
  const [shownGroup, setShownGroup] = useState(group);
  if (group !== shownGroup) {
    setShownGroup(group);
    if (group && !openKeys.includes(group)) setOpenKeys([...openKeys, group]);
  }

  const toItem = (entry: MenuEntry): NonNullable<MenuProps['items']>[number] => {
    if (entry.kind === 'group') {
      return {
        key: entry.key,
        icon: ICONS[entry.icon],
        label: t(entry.labelKey),
        children: entry.items.map((item) => ({ key: `${entry.key}:${item.path}`, label: t(item.labelKey) })),
      };
    }
    return { key: `:${entry.path}`, icon: ICONS[entry.icon], label: t(entry.labelKey) };
  };

  const selectedKeys = entries.flatMap((entry) =>
    entry.kind === 'group' ? entry.items.filter((item) => item.path === pathname).map((item) => `${entry.key}:${item.path}`) : entry.path === pathname ? [`:${entry.path}`] : [],
  );

  const accountMenu: MenuProps['items'] = [
    { key: 'personal', label: t('nav.personal'), onClick: () => navigate('/') },
    ...(user.is_staff ? [{ key: 'admin', label: <a href={sitePath('/admin/')}>{t('nav.admin')}</a> }] : []),
    { type: 'divider' as const },
    { key: 'logout', label: t('nav.signOut'), onClick: () => void signOut(t('account.logoutDone')) },
  ];

  const personalMenu = (
    <nav aria-label={t('nav.personal')}>
      <Menu
        mode="inline"
        items={entries.map(toItem)}
        selectedKeys={selectedKeys}
        openKeys={collapsed && !isPhone ? undefined : openKeys}
        onOpenChange={setOpenKeys}
        onClick={({ key }) => {
          setDrawerOpen(false);
          navigate(key.slice(key.indexOf(':') + 1));
        }}
        style={{ borderInlineEnd: 'none' }}
      />
    </nav>
  );
  const siteLinks = [
    ...TOP_MENU.map(({ path, labelKey }) => ({ href: sitePath(path), label: t(labelKey), current: false })),
    { href: sitePath('/personal/'), label: t('nav.personal'), current: true },
  ];

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: isPhone ? 4 : 16, background: '#0b4f8a', color: '#fff', paddingInline: isPhone ? 4 : 16 }}>
        {isPhone && <MenuDrawerButton open={drawerOpen} onOpen={() => setDrawerOpen(true)} dark />}
        <div style={{ flex: 1, minWidth: 0, color: '#fff' }}>
          <SiteBrand compact={isPhone} />
        </div>
        {!isPhone && (
          <>
            <nav aria-label={t('nav.siteMenu')} style={{ display: 'flex', gap: 20 }}>
              {siteLinks.map(({ href, label, current }) => (
                <a
                  key={href}
                  href={href}
                  style={{ color: current ? '#fff' : '#dbe9f7', fontWeight: current ? 600 : undefined, whiteSpace: 'nowrap' }}
                  aria-current={current ? 'page' : undefined}
                >
                  {label}
                </a>
              ))}
            </nav>
            <LanguageSwitch dark />
          </>
        )}
        <Dropdown menu={{ items: accountMenu }} trigger={['click']}>
          <Button type="text" style={{ color: '#fff', minWidth: 0, maxWidth: isPhone ? 'calc(100vw - 110px)' : 320, flex: 'none' }} data-testid="header-user">
            <UserOutlined />
            <span data-testid="header-user-name" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {user.realname || user.username}
            </span>
            <DownOutlined />
          </Button>
        </Dropdown>
      </Layout.Header>
      <Layout>
        {!isPhone && (
          <Layout.Sider width={MENU_WIDTH.expanded} collapsedWidth={MENU_WIDTH.collapsed} collapsed={collapsed} theme="light" style={{ borderRight: '1px solid #e5e9f0' }}>
            <Button
              type="text"
              block
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed(!collapsed)}
              aria-label={collapsed ? t('menu.expand') : t('menu.collapse')}
              style={{ height: 48 }}
            />
            {personalMenu}
          </Layout.Sider>
        )}
        <Layout.Content style={{ padding: isPhone ? 12 : 24, minWidth: 0 }}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      {isPhone && (
        <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)}>
          {personalMenu}
          <Divider style={{ margin: '8px 0' }} />
          <nav aria-label={t('nav.siteMenu')}>
            <Menu
              mode="inline"
              selectable={false}
              style={{ borderInlineEnd: 'none' }}
              items={siteLinks.map(({ href, label }) => ({ key: href, label: <a href={href}>{label}</a> }))}
            />
          </nav>
          <div style={{ padding: '8px 16px' }}>
            <LanguageSwitch />
          </div>
        </MenuDrawer>
      )}
    </Layout>
  );
}
