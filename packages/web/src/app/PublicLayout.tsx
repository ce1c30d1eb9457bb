import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { Icon } from '../components/Icon';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { MenuDrawerButton } from '../components/MenuDrawerButton';
import { SideDrawer } from '../components/SideDrawer';
import { SiteBrand } from '../components/SiteBrand';
import { useIsPhone } from '../components/useIsPhone';
import { useCurrentUser } from '../features/account/api';
import './public.css';
import './public-home.css';
import { personalPath, siteVariant, TOP_MENU } from './site';

/**
 * The public site's frame, in plain React (no Ant Design, so that public pages stay light): a skip
 * link, the header with brand, top menu (spec section 1), language switch and account, the page,
 * the footer. On a phone the header keeps the menu button, the whole site title and the user's name
 * (or Log in); the top menu, the language switch and Register move into a drawer.
 */
export function PublicLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: user } = useCurrentUser();
  const isPhone = useIsPhone();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const section = pathname === '/' || pathname === '/index' ? '/' : `/${pathname.split('/')[1]}/`;

  const links = (
    <ul className="site-nav-list">
      {TOP_MENU.map(({ path, labelKey }) => {
        const current = section === (path.endsWith('/') ? path : `${path}/`);
        return (
          <li key={path}>
            <Link to={path} aria-current={current ? 'page' : undefined} onClick={() => setDrawerOpen(false)}>
              {t(labelKey)}
            </Link>
          </li>
        );
      })}
      <li>
        <a href={personalPath('/')}>{t('nav.personal')}</a>
      </li>
    </ul>
  );
  const account = user ? (
    <a href={personalPath('/')} className="header-user" data-testid="header-user">
      <Icon icon={UserOutlined} />
      <span data-testid="header-user-name">{user.realname || user.username}</span>
    </a>
  ) : (
    <a href={personalPath('/login')} className="header-login">
      {t('nav.login')}
    </a>
  );
  const register = !user && (
    <a href={personalPath('/register')} className="button button-primary">
      {t('nav.register')}
    </a>
  );

  return (
    <div className="site">
      <a href="#main" className="skip-link">
        {t('nav.skipToContent')}
      </a>
      <header className={isPhone ? 'site-header is-phone' : 'site-header'}>
        {isPhone && <MenuDrawerButton open={drawerOpen} onOpen={() => setDrawerOpen(true)} />}
        <div className="site-header-brand">
          <SiteBrand wrap={isPhone} />
        </div>
        {!isPhone && (
          <nav aria-label={t('nav.siteMenu')} className="site-nav">
            {links}
          </nav>
        )}
        <div className="site-header-actions">
          {!isPhone && <LanguageSwitch />}
          {account}
          {!isPhone && register}
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">{t(`site.${siteVariant()}.title`)}</footer>
      {isPhone && (
        <SideDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} title={t('nav.menu')}>
          <nav aria-label={t('nav.siteMenu')} className="site-nav is-vertical">
            {links}
          </nav>
          <div className="side-drawer-actions">
            <LanguageSwitch />
            {register}
          </div>
        </SideDrawer>
      )}
    </div>
  );
}
