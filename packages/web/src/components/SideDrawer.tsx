import CloseOutlined from '@ant-design/icons-svg/es/asn/CloseOutlined';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

/**
 * A drawer from the left without Ant Design: a native modal `<dialog>`, which keeps focus inside,
 * makes the page behind it inert, closes on Escape and gives focus back to the button that opened
 * it. A click on the backdrop closes it too. Named by its title.
 */
export function SideDrawer({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="side-drawer"
      aria-labelledby={titleId}
      onClose={onClose}
      // The panel fills the dialog, so a click on the dialog itself is a click on its backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="side-drawer-panel">
        <div className="side-drawer-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button is-square" onClick={onClose} aria-label={t('common.close')}>
            <Icon icon={CloseOutlined} />
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
