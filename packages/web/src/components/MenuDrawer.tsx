import { Drawer } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** On a phone, the personal centre's menus the header has no room for: a drawer from the left, named "Menu". */
export function MenuDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Drawer open={open} onClose={onClose} placement="left" size={300} title={t('nav.menu')} styles={{ body: { padding: '8px 0' } }}>
      {children}
    </Drawer>
  );
}
