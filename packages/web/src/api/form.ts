import type { FormInstance } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { TFunction } from 'i18next';
import { CHANGE_RESULT } from '@portal/shared';
import { api, ApiError, isRequestError, type RequestOptions } from './client';

const NON_FIELD = new Set(['detail', 'status', 'msg', 'request_error', 'text', 'non_field_errors']);

/** The field errors of a 4xx reply, DRF style `{field: [message]}`. */
export function fieldErrorsOf(reply: Record<string, unknown>): [string, string][] {
  return Object.entries(reply)
    .filter(([key, value]) => !NON_FIELD.has(key) && Array.isArray(value) && typeof value[0] === 'string')
    .map(([key, value]) => [key, (value as string[])[0]!]);
}

/** The server's words of a failed call (its detail, else its first field's message), else `fallback`. */
export function refusal(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (typeof error.reply.detail === 'string' && error.reply.detail) return error.reply.detail;
    const first = fieldErrorsOf(error.reply)[0];
    if (first) return first[1];
  }
  return fallback;
}

/** A field's label in the page's language: the caller's labels, else the catalogue's `fields.<name>`; never the wire name. */
export function fieldLabel(name: string, t: TFunction, labels?: Record<string, string>): string | undefined {
  return labels?.[name] || t(`fields.${name}`, { defaultValue: '' }) || undefined;
}

/**
 * What the form-post helper of spec section 8 shows for a failed reply: the first field's message
 * with its label (the message alone when the field has none); for 401 / 403 the server's text;
 * otherwise the generic text.
 */
export function formErrorText(reply: Record<string, unknown> & { request_error: { status: number } }, t: TFunction, labels?: Record<string, string>): string {
  const status = reply.request_error.status;
  const detail = typeof reply.detail === 'string' ? reply.detail : undefined;
  if ((status === 401 || status === 403) && detail) return detail;
  const [first] = fieldErrorsOf(reply);
  if (first) {
    const label = fieldLabel(first[0], t, labels);
    return label ? `${label}: ${first[1]}` : first[1];
  }
  if (status < 500 && detail) return detail;
  return t('errors.formGeneric');
}

export interface FormReplyContext {
  message: MessageInstance;
  t: TFunction;
  form?: FormInstance;
  /** Labels of fields the reply may name that the form does not show. */
  labels?: Record<string, string>;
  /**
   * Field errors of fields the form shows are marked there only, without a toast (the editor):
   * each error is shown once, under its label.
   */
  inline?: boolean;
}

/** The reply's field errors that name a field of the form. */
function formFieldErrors(reply: Record<string, unknown>, form: FormInstance): [string, string][] {
  const known = new Set(Object.keys(form.getFieldsValue(true) as object));
  return fieldErrorsOf(reply).filter(([name]) => known.has(name));
}

/**
 * Handles a form post's reply: on failure shows the toast and marks the fields in the form (with
 * `inline`, errors of the form's fields are only marked). Returns the reply when it succeeded,
 * undefined otherwise.
 */
export function handleFormReply<T>(reply: unknown, { message, t, form, labels, inline }: FormReplyContext): T | undefined {
  if (!isRequestError(reply)) return reply as T;
  const marked = form ? formFieldErrors(reply, form) : [];
  if (form) form.setFields(marked.map(([name, error]) => ({ name, errors: [error] })));
  const status = reply.request_error.status;
  if (inline && marked.length && status !== 401 && status !== 403) {
    // What the form does not show still gets its toast, by its label.
    const rest = Object.fromEntries(Object.entries(reply).filter(([key]) => !marked.some(([name]) => name === key)));
    if (fieldErrorsOf(rest).length) message.error(formErrorText({ ...rest, request_error: reply.request_error }, t, labels));
    return undefined;
  }
  // 'Username or email already exists!' of /account/change/ is a warning (spec section 8).
  const show = reply.status === CHANGE_RESULT.duplicate ? message.warning : message.error;
  show(formErrorText(reply, t, labels));
  return undefined;
}

/**
 * Posts a form and handles the reply as above; a request that fails on the way (no connection,
 * a reply the client cannot read) shows the generic text.
 */
export async function postForm<T>(url: string, fields: RequestOptions['form'], context: FormReplyContext): Promise<T | undefined> {
  let reply: unknown;
  try {
    reply = await api.postForm<T>(url, fields);
  } catch {
    context.message.error(context.t('errors.formGeneric'));
    return undefined;
  }
  return handleFormReply<T>(reply, context);
}
