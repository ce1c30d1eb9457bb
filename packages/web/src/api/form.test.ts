import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import type { MessageInstance } from 'antd/es/message/interface';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { translate } from '@portal/shared';
import { fieldErrorsOf, formErrorText, handleFormReply, postForm } from './form';

// The English catalogue as i18next's t would read it.
const t = ((key: string, options?: { defaultValue?: string }) => {
  const text = translate('en', key);
  return text === key && options?.defaultValue !== undefined ? options.defaultValue : text;
}) as unknown as TFunction;

describe('the form-post error text (spec section 8)', () => {
  it('shows the first field with its label and message', () => {
    const reply = { email: ['The input is not valid E-mail!'], detail: 'x', request_error: { status: 400 } };
    expect(formErrorText(reply, t)).toBe('E-mail: The input is not valid E-mail!');
  });

  it('shows a field without a label by its message alone, never by its wire name', () => {
    expect(formErrorText({ dist_email: ['broken'], request_error: { status: 400 } }, t)).toBe('broken');
  });

  it("names a field by the caller's label", () => {
    expect(formErrorText({ dist_email: ['broken'], request_error: { status: 400 } }, t, { dist_email: 'Distribution e-mail' })).toBe('Distribution e-mail: broken');
  });

  it("shows the server's text on 401 and 403", () => {
    expect(formErrorText({ detail: 'Please log in first.', request_error: { status: 401 } }, t)).toBe('Please log in first.');
    expect(formErrorText({ detail: 'No.', password: ['x'], request_error: { status: 403 } }, t)).toBe('No.');
  });

  it('falls back to the generic text', () => {
    expect(formErrorText({ text: 'Bad gateway', request_error: { status: 502 } }, t)).toBe('Something went wrong!Please try again later');
    expect(formErrorText({ request_error: { status: 400 } }, t)).toBe('Something went wrong!Please try again later');
  });

  it('keeps status codes and details out of the field errors', () => {
    expect(fieldErrorsOf({ status: -1, detail: 'd', msg: 'm', old_password: ['wrong'] })).toEqual([['old_password', 'wrong']]);
  });
});

/** Records what would be shown as toasts. */
function recordingMessages() {
  const shown: [string, string][] = [];
  const record = (kind: string) => (text: unknown) => {
    shown.push([kind, String(text)]);
    return Promise.resolve(true);
  };
  const message = { error: record('error'), warning: record('warning'), success: record('success') } as unknown as MessageInstance;
  return { shown, message };
}

describe('handling a form reply', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('warns, not errs, about a taken username or e-mail in /account/change/ (status 0)', () => {
    const { shown, message } = recordingMessages();
    handleFormReply({ status: 0, detail: 'Username or email already exists!', request_error: { status: 409 } }, { message, t });
    expect(shown).toEqual([['warning', 'Username or email already exists!']]);
  });

  it('marks the fields of the form only, once, when asked to (the editor), and toasts what the form does not show', () => {
    const { shown, message } = recordingMessages();
    const set: unknown[] = [];
    const form = { getFieldsValue: () => ({ name: 'x', translation: 'y' }), setFields: (fields: unknown[]) => set.push(...fields) } as unknown as FormInstance;
    const reply = { name: ['Taken.'], detail: 'Taken.', request_error: { status: 400 } };
    handleFormReply(reply, { message, t, form, inline: true });
    expect(set).toEqual([{ name: 'name', errors: ['Taken.'] }]);
    expect(shown).toEqual([]);
    handleFormReply({ name: ['Taken.'], metadata: ['Gone.'], request_error: { status: 400 } }, { message, t, form, inline: true, labels: { metadata: 'Metadata' } });
    expect(shown).toEqual([['error', 'Metadata: Gone.']]);
  });

  it('returns a successful reply and shows nothing', () => {
    const { shown, message } = recordingMessages();
    expect(handleFormReply({ status: 1, msg: 'ok' }, { message, t })).toEqual({ status: 1, msg: 'ok' });
    expect(shown).toEqual([]);
  });

  it('shows the generic text when the server cannot be reached', async () => {
    vi.stubGlobal('location', { pathname: '/personal/' });
    vi.stubGlobal('document', { cookie: '' });
    const { shown, message } = recordingMessages();
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    expect(await postForm('http://127.0.0.1:9/account/change/', { realname: 'x' }, { message, t })).toBeUndefined();
    expect(shown).toEqual([['error', 'Something went wrong!Please try again later']]);
  });
});
