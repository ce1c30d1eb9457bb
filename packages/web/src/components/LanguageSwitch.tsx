import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_COOKIE, swapLanguageInPath } from '@portal/shared';
import { writeCookie } from '../api/cookies';
import { pageLanguage } from '../app/i18n';

/** Sets the `lang` cookie and reloads the same address in the other language (spec section 2). */
export function LanguageSwitch({ dark = false }: { dark?: boolean }) {
  const { t } = useTranslation();
  const target = pageLanguage === 'en' ? 'zh-hans' : 'en';
  const handleClick = () => {
    writeCookie(LANGUAGE_COOKIE.name, target, LANGUAGE_COOKIE.maxAgeDays);
    location.assign(`${swapLanguageInPath(location.pathname, target)}${location.search}${location.hash}`);
  };
  return (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      onClick={handleClick}
      // The name starts with the visible text (WCAG 2.5.3): speech users say what they see.
      aria-label={t('nav.switchToLabel')}
      style={dark ? { color: '#fff' } : undefined}
    >
      <span lang={target === 'en' ? 'en' : 'zh-CN'}>{t('nav.switchTo')}</span>
    </Button>
  );
}
