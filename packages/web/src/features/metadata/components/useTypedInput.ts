import type { FormInstance } from 'antd';
import { useEffect } from 'react';
import type { EditorSession } from './editorSession';
import { useFeedback } from './useFeedback';

/** Whether a form holds something typed: a touched field (of `fields`, else any) that is not empty. */
function holdsTyping(form: FormInstance, fields?: string[]): boolean {
  const values = form.getFieldsValue(true) as Record<string, unknown>;
  return Object.entries(values).some(
    ([name, value]) => (!fields || fields.includes(name)) && form.isFieldTouched(name) && value !== undefined && value !== null && String(value).trim() !== '',
  );
}

/**
 * Typing in a form that saves only when its button is pressed (a dialog's Add or Save, the keyword
 * row): while it holds any, leaving or reloading the editor asks first, naming it by `title`; and
 * `close` (the dialog's Cancel, its ×, Escape) asks before throwing it away.
 */
export function useTypedInput({
  session,
  form,
  active,
  title,
  onClose,
  fields,
}: {
  session?: EditorSession;
  form: FormInstance;
  active: boolean;
  title: string;
  onClose?: () => void;
  /** The fields that hold typing (not a choice among options); every field when not given. */
  fields?: string[];
}) {
  const { modal, t } = useFeedback();
  useEffect(() => {
    if (!active || !session) return;
    const dialog = { unsaved: () => (holdsTyping(form, fields) ? [title] : null) };
    session.dialogs.add(dialog);
    return () => {
      session.dialogs.delete(dialog);
    };
    // `fields` is a constant list of each caller's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, session, form, title]);

  const close = () => {
    if (!onClose) return;
    if (!holdsTyping(form, fields)) return onClose();
    modal.confirm({
      title: t('editor.discard.title'),
      content: t('editor.discard.content', { name: title }),
      okText: t('editor.discard.discard'),
      okButtonProps: { danger: true },
      cancelText: t('editor.discard.keep'),
      onOk: onClose,
    });
  };
  return close;
}
