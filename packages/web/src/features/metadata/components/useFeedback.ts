import { App, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { handleFormReply } from '../../../api/form';
import { ApiError } from '../api';

/**
 * Runs an editor call and shows what failed the house way (spec section 8): the server's field
 * message, its 401 / 403 text, else the generic text. Returns the result, or undefined on failure.
 */
export function useFeedback() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const run = async <T,>(work: () => Promise<T>, form?: FormInstance): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError) handleFormReply(error.reply, { message, t, form });
      else if (error instanceof Error && error.message) message.error(error.message);
      else message.error(t('errors.formGeneric'));
      return undefined;
    }
  };
  return { run, message, modal, t };
}
