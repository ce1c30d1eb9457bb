import { App, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, handleFormReply } from '../../../api/form';
import { ApiError } from '../api';

/** Statuses of a refusal: not the caller's to change (403), or a shared entry others' records still use (409). */
const REFUSALS = new Set([403, 409]);

/** The server's own words of a refusal: its `detail`, else its first field message; undefined when it gave none. */
export function refusalText(error: ApiError): string | undefined {
  if (!REFUSALS.has(error.status)) return undefined;
  if (typeof error.reply.detail === 'string' && error.reply.detail) return error.reply.detail;
  return fieldErrorsOf(error.reply)[0]?.[1];
}

/**
 * Runs an editor call and shows what failed the house way (spec section 8), each error once: a
 * field error of a field the form shows is marked under that field (its label above it), any other
 * is a toast with the field's label (`labels`, else the catalogue's), never its wire name; a 401 /
 * 403 shows the server's text, else the generic text. A refusal (403, 409: a shared author,
 * reference, keyword or translation the caller may not change) shows the server's message as it
 * is. Returns the result, or undefined on failure.
 */
export function useFeedback() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const run = async <T>(work: () => Promise<T>, form?: FormInstance, labels?: Record<string, string>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      const refusal = error instanceof ApiError ? refusalText(error) : undefined;
      if (refusal && error instanceof ApiError) {
        const known = new Set(form ? Object.keys(form.getFieldsValue(true) as object) : []);
        const marked = fieldErrorsOf(error.reply).filter(([name]) => known.has(name));
        form?.setFields(marked.map(([name, text]) => ({ name, errors: [text] })));
        if (!marked.length) message.error(refusal);
      } else if (error instanceof ApiError) handleFormReply(error.reply, { message, t, form, labels, inline: true });
      else if (error instanceof Error && error.message) message.error(error.message);
      else message.error(t('errors.formGeneric'));
      return undefined;
    }
  };
  return { run, message, modal, t };
}
