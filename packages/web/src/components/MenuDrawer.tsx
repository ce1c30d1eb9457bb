import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The header's menu button of a phone-sized screen; it opens the MenuDrawer. */
export function MenuDrawerButton({ open, onOpen, dark = false }: { open: boolean; onOpen: () => void; dark?: boolean }) {
  const { t } = useTranslation();
  return (
    <Button
      type="text"
      icon={<MenuOutlined />}
      onClick={onOpen}
      aria-label={t('nav.openMenu')}
      aria-expanded={open}
      style={{ color: dark ? '#fff' : undefined, width: 44, height: 44, flex: 'none' }}
    />
  );
}

/** On a phone, the menus the header has no room for: a drawer from the left, named "Menu". */
export function MenuDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Drawer open={open} onClose={onClose} placement="left" size={300} title={t('nav.menu')} styles={{ body: { padding: '8px 0' } }}>
      {children}
    </Drawer>
  );
}
