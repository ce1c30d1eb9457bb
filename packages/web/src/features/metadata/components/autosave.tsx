import { Button, Space, Typography } from 'antd';
import { fieldErrorsOf } from '../../../api/form';
import { ApiError } from '../api';
import { useFeedback } from './useFeedback';

/**
 * What the Overview and the Translations share to save as they are typed in: the save state and its
 * line, the values of refused fields kept across a reload, and the PATCH that leaves out what the
 * server refuses.
 */

/** What the status line says about a form's changes. */
export type SaveState =
  { kind: 'none' | 'pending' | 'saving' } | { kind: 'saved'; at: Date } | { kind: 'partial'; at: Date | null; fields: string[] } | { kind: 'failed'; reason: string };

/** How long typing rests before it is saved. */
export const AUTOSAVE_DELAY_MS = 1500;

const hhmm = (date: Date) => `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
export const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Where the values of fields that could not be saved wait, across a reload, until they are fixed. */
export function readUnsaved(key: string): Record<string, unknown> {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? '{}') as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function writeUnsaved(key: string, values: Record<string, unknown>) {
  try {
    if (Object.keys(values).length) localStorage.setItem(key, JSON.stringify(values));
    else localStorage.removeItem(key);
  } catch {
    // Storage full or refused: the fields stay marked on the page.
  }
}

/**
 * Sends `body` with `send` (a PATCH); fields the server refuses (400 naming them) are added to
 * `refused` and the rest sent again once. What was sent is recorded in `stored` under its form name.
 */
export async function patchValid(
  send: (body: Record<string, unknown>) => Promise<unknown>,
  body: Record<string, unknown>,
  refused: Map<string, string>,
  stored: Record<string, unknown>,
  rename = (name: string) => name,
) {
  let rest = body;
  for (let attempt = 0; Object.keys(rest).length; attempt += 1) {
    try {
      await send(rest);
      for (const [key, value] of Object.entries(rest)) stored[rename(key)] = value;
      return;
    } catch (error) {
      const fields = error instanceof ApiError && error.status === 400 ? fieldErrorsOf(error.reply).filter(([name]) => name in rest) : [];
      if (attempt > 0 || !fields.length) throw error;
      for (const [name, text] of fields) refused.set(rename(name), text);
      rest = Object.fromEntries(Object.entries(rest).filter(([name]) => !fields.some(([field]) => field === name)));
    }
  }
}

/** Save and the save state, kept in sight at the top of the form as it scrolls (on a phone too). */
export function SaveBar({ state, onSave, label }: { state: SaveState; onSave: () => void; label: (field: string) => string }) {
  const { t } = useFeedback();
  const names = (fields: string[]) => fields.map(label).join(t('editor.listSeparator'));
  const text = (() => {
    switch (state.kind) {
      case 'saved':
        return t('editor.saveState.saved', { time: hhmm(state.at) });
      case 'partial':
        return state.at ? t('editor.saveState.partial', { time: hhmm(state.at), fields: names(state.fields) }) : t('editor.saveState.failed', { reason: names(state.fields) });
      case 'failed':
        return t('editor.saveState.failed', { reason: state.reason });
      default:
        return t(`editor.saveState.${state.kind}`);
    }
  })();
  return (
    <Space wrap style={{ position: 'sticky', top: 0, zIndex: 3, background: '#fff', padding: '8px 0', width: '100%' }}>
      <Button type="primary" onClick={onSave}>
        {t('editor.save')}
      </Button>
      <Typography.Text type={state.kind === 'failed' || state.kind === 'partial' ? 'danger' : 'secondary'} aria-live="polite" data-testid="save-state">
        {text}
      </Typography.Text>
    </Space>
  );
}
