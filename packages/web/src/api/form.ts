import type { FormInstance } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { TFunction } from 'i18next';
import { CHANGE_RESULT } from '@portal/shared';
import { api, isRequestError, type RequestOptions } from './client';

const NON_FIELD = new Set(['detail', 'status', 'msg', 'request_error', 'text', 'non_field_errors']);

/** The field errors of a 4xx reply, DRF style `{field: [message]}`. */
export function fieldErrorsOf(reply: Record<string, unknown>): [string, string][] {
  return Object.entries(reply)
    .filter(([key, value]) => !NON_FIELD.has(key) && Array.isArray(value) && typeof value[0] === 'string')
    .map(([key, value]) => [key, (value as string[])[0]!]);
}

/**
 * What the form-post helper of spec section 8 shows for a failed reply: the first field's message
 * with its field name; for 401 / 403 the server's text; otherwise the generic text.
 */
export function formErrorText(reply: Record<string, unknown> & { request_error: { status: number } }, t: TFunction): string {
  const status = reply.request_error.status;
  const detail = typeof reply.detail === 'string' ? reply.detail : undefined;
  if ((status === 401 || status === 403) && detail) return detail;
  const [first] = fieldErrorsOf(reply);
  if (first) {
    const label = t(`fields.${first[0]}`, { defaultValue: first[0] });
    return `${label}: ${first[1]}`;
  }
  if (status < 500 && detail) return detail;
  return t('errors.formGeneric');
}

/**
 * Handles a form post's reply: on failure shows the toast and marks the fields in the form.
 * Returns the reply when it succeeded, undefined otherwise.
 */
export function handleFormReply<T>(
  reply: unknown,
  { message, t, form }: { message: MessageInstance; t: TFunction; form?: FormInstance },
): T | undefined {
  if (!isRequestError(reply)) return reply as T;
  // 'Username or email already exists!' of /account/change/ is a warning (spec section 8).
  const show = reply.status === CHANGE_RESULT.duplicate ? message.warning : message.error;
  show(formErrorText(reply, t));
  if (form) {
    const known = new Set(Object.keys(form.getFieldsValue(true) as object));
    form.setFields(
      fieldErrorsOf(reply)
        .filter(([name]) => known.has(name))
        .map(([name, error]) => ({ name, errors: [error] })),
    );
  }
  return undefined;
}

/**
 * Posts a form and handles the reply as above; a request that fails on the way (no connection,
 * a reply the client cannot read) shows the generic text.
 */
export async function postForm<T>(
  url: string,
  fields: RequestOptions['form'],
  context: { message: MessageInstance; t: TFunction; form?: FormInstance },
): Promise<T | undefined> {
  let reply: unknown;
  try {
    reply = await api.postForm<T>(url, fields);
  } catch {
    context.message.error(context.t('errors.formGeneric'));
    return undefined;
  }
  return handleFormReply<T>(reply, context);
}
