import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_COOKIE, languageTag, swapLanguageInPath } from '@portal/shared';
import { writeCookie } from '../api/cookies';
import { pageLanguage } from '../app/i18n';
import { Icon } from './Icon';

/** Sets the `lang` cookie and reloads the same address in the other language (spec section 2). */
export function LanguageSwitch({ dark = false }: { dark?: boolean }) {
  const { t } = useTranslation();
  const target = pageLanguage === 'en' ? 'zh-hans' : 'en';
  const handleClick = () => {
    writeCookie(LANGUAGE_COOKIE.name, target, LANGUAGE_COOKIE.maxAgeDays);
    location.assign(`${swapLanguageInPath(location.pathname, target)}${location.search}${location.hash}`);
  };
  return (
    <button
      type="button"
      className={dark ? 'icon-button is-dark' : 'icon-button'}
      onClick={handleClick}
      // The name starts with the visible text (WCAG 2.5.3): speech users say what they see.
      aria-label={t('nav.switchToLabel')}
    >
      <Icon icon={GlobalOutlined} />
      <span lang={languageTag(target)}>{t('nav.switchTo')}</span>
    </button>
  );
}
