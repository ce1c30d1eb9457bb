import MenuOutlined from '@ant-design/icons-svg/es/asn/MenuOutlined';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

/** The header's menu button of a phone-sized screen, 44 px square; it opens the menu drawer. */
export function MenuDrawerButton({ open, onOpen, dark = false }: { open: boolean; onOpen: () => void; dark?: boolean }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={dark ? 'icon-button is-square is-dark' : 'icon-button is-square'}
      onClick={onOpen}
      aria-label={t('nav.openMenu')}
      aria-expanded={open}
      aria-haspopup="dialog"
    >
      <Icon icon={MenuOutlined} />
    </button>
  );
}
