import { App, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRequestError, type Reply } from '../../../api/client';
import { handleFormReply } from '../../../api/form';

interface StepContext {
  /** The form whose fields a refusal may name (marked under their labels). */
  form?: FormInstance;
  /** Labels of fields the reply may name that the form does not show. */
  labels: Record<string, string>;
  /** The toast once the step is taken. */
  success: string;
  onClose: () => void;
  /** Reloads the panel and the list. */
  onDone: () => void;
}

/**
 * Takes one step of the desk (a decision, an invitation). A 409 (someone else decided meanwhile,
 * or the record is not where the caller saw it) shows the server's words and reloads the panel;
 * any other refusal is shown by field label, never by wire name (api/form.ts).
 */
export function useDeskStep() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const send = async (call: () => Promise<Reply<unknown>>, { form, labels, success, onClose, onDone }: StepContext) => {
    setBusy(true);
    try {
      const reply = await call();
      if (isRequestError(reply) && reply.request_error.status === 409) {
        message.error(typeof reply.detail === 'string' ? reply.detail : t('review.changedMeanwhile'));
        onClose();
        onDone();
        return;
      }
      if (!handleFormReply(reply, { message, t, form, inline: true, labels })) return;
      message.success(success);
      onClose();
      onDone();
    } catch {
      message.error(t('errors.formGeneric'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, send };
}
