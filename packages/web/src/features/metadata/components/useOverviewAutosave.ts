import type { FormInstance } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { descriptionLength, METADATA_LIMITS } from '@portal/shared';
import { path } from '../../../api/routes';
import { formErrorText } from '../../../api/form';
import { ApiError, metadataApi, recordKey, resource, sendOnUnload, translationsKey, type MetadataRecord, type Page, type Translation } from '../api';
import { AUTOSAVE_DELAY_MS, patchValid, readUnsaved as readKept, same, writeUnsaved as writeKept, type SaveState } from './autosave';
import { useSessionAutosave, type EditorSession } from './editorSession';
import { FIELD_LABELS, fieldsOf, problemOf, RECORD_FIELDS, sendable, type OverviewValues, type RecordField } from './overviewFields';
import { useFeedback } from './useFeedback';

/** Where the values of fields that could not be saved wait, across a reload, until they are fixed. */
const unsavedKey = (id: string) => `portal.editor.unsaved.${id}`;

const readUnsaved = (id: string) => readKept(unsavedKey(id));
const writeUnsaved = (id: string, values: Record<string, unknown>) => writeKept(unsavedKey(id), values);

interface AutosaveOptions {
  form: FormInstance<OverviewValues>;
  record: MetadataRecord;
  english: Translation | undefined;
  readOnly: boolean;
  session: EditorSession;
}

/**
 * The Overview's saving: changed fields that pass the server's schema are sent once typing rests
 * (or on Save), refused ones stay marked and kept across a reload, and the page closing sends what
 * is still on its way. The editor session asks it what is unsaved before leaving.
 */
export function useOverviewAutosave({ form, record, english, readOnly, session }: AutosaveOptions) {
  const { message, modal, t } = useFeedback();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** Saves started and not yet answered: the page closing then sends their values again. */
  const inFlight = useRef(0);
  const [state, setState] = useState<SaveState>({ kind: 'none' });
  /** Fields whose value is not stored: refused (by the schema here or by the server), with their message. */
  const invalid = useRef(new Map<string, string>());
  /** The last save failed as a whole (no connection, no right): its changes are not stored. */
  const failed = useRef(false);
  /** What the latest render knows, for saves that run later (after a tab change, on leaving). */
  const latest = useRef({ record, english });
  latest.current = { record, english };
  /** The values as last stored: only what differs from them is sent. */
  const stored = useRef<Record<string, unknown>>({
    ...Object.fromEntries(RECORD_FIELDS.map((key) => [key, sendable(key, record[key])])),
    en_title: english?.title ?? '',
    en_description: english?.description ?? '',
  });
  const label = (key: string) => t(`editor.fields.${FIELD_LABELS[key as RecordField] ?? key}`);
  const labels = Object.fromEntries(Object.keys(FIELD_LABELS).map((key) => [key, label(key)]));

  /** The changed fields, split into those that pass the server's schema and those that do not. */
  const collect = () => {
    const values = form.getFieldsValue(true) as OverviewValues;
    const { record: current, english: translation } = latest.current;
    const keys: string[] = [...fieldsOf(current), ...(translation ? ['en_title', 'en_description'] : [])];
    const valid: Record<string, unknown> = {};
    const refused = new Map<string, string>();
    for (const key of keys) {
      const value = sendable(key, values[key as keyof OverviewValues]);
      if (same(value, stored.current[key])) continue;
      const problem = problemOf(key, value);
      if (problem) refused.set(key, t(problem));
      else valid[key] = value;
    }
    const { en_title: title, en_description: text, ...changes } = valid;
    const englishValues = { ...(title !== undefined && { title }), ...(text !== undefined && { description: text }) };
    return { changes, english: translation && Object.keys(englishValues).length ? { id: translation.id, values: englishValues } : undefined, refused, values };
  };

  /** Marks the refused fields in the form and keeps their values for a reload; clears the marks of the others. */
  const mark = (refused: Map<string, string>, sent: string[], values: OverviewValues) => {
    const cleared = new Set([...sent, ...invalid.current.keys()]);
    invalid.current = refused;
    form.setFields([
      ...[...cleared].filter((key) => !refused.has(key)).map((name) => ({ name: name as RecordField, errors: [] as string[] })),
      ...[...refused].map(([name, error]) => ({ name: name as RecordField, errors: [error] })),
    ]);
    writeUnsaved(record.id, Object.fromEntries([...refused.keys()].map((key) => [key, values[key as keyof OverviewValues] ?? null])));
  };

  /** Sends `body` with PATCH; fields the server refuses are taken out and the rest sent again once. */
  const patch = (send: (body: Record<string, unknown>) => Promise<unknown>, body: Record<string, unknown>, refused: Map<string, string>, rename?: (name: string) => string) =>
    patchValid(send, body, refused, stored.current, rename);

  const save = (auto: boolean) =>
    session.enqueue(async () => {
      const { changes, english: englishChange, refused, values } = collect();
      const sent = [...Object.keys(changes), ...(englishChange ? Object.keys(englishChange.values).map((key) => `en_${key}`) : [])];
      setState({ kind: 'saving' });
      inFlight.current += 1;
      try {
        await patch((body) => metadataApi.update(record.id, body), changes, refused);
        if (englishChange) {
          await patch(
            async (body) => {
              const row = await resource.update<Translation>('metadata-i18n', englishChange.id, body);
              // The one cache entry of the translations, which the Translations tab reads too.
              queryClient.setQueryData(translationsKey(record.id), (old: Page<Translation> | undefined) =>
                old ? { ...old, results: old.results.map((item) => (item.id === row.id ? row : item)) } : old,
              );
            },
            englishChange.values,
            refused,
            (name) => `en_${name}`,
          );
        }
        failed.current = false;
        mark(refused, sent, values);
        const at = new Date();
        setState(refused.size ? { kind: 'partial', at, fields: [...refused.keys()] } : { kind: 'saved', at });
        if (!auto && !refused.size) message.success(t('metadata.saved'));
        return true;
      } catch (error) {
        failed.current = true;
        const reason =
          error instanceof ApiError ? formErrorText({ ...error.reply, request_error: { status: error.status } }, t, labels) : (error as Error).message || t('errors.formGeneric');
        setState({ kind: 'failed', reason });
        return false;
      } finally {
        inFlight.current -= 1;
        await queryClient.invalidateQueries({ queryKey: recordKey(record.id) });
      }
    });

  const saveNow = () => {
    if (!timer.current) return;
    clearTimeout(timer.current);
    timer.current = null;
    void save(true);
  };

  /** The page is closing: what is unsaved (or still on its way) goes with keepalive requests; what is invalid stays here. */
  const saveOnUnload = () => {
    if (!timer.current && inFlight.current === 0) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const { changes, english: englishChange, refused, values } = collect();
    writeUnsaved(record.id, Object.fromEntries([...refused.keys()].map((key) => [key, values[key as keyof OverviewValues] ?? null])));
    if (Object.keys(changes).length) sendOnUnload('PATCH', path('record', { id: record.id }), changes);
    if (englishChange) sendOnUnload('PATCH', path('resourceItem', { name: 'metadata-i18n', id: englishChange.id }), englishChange.values);
  };

  /** The labels of what is not stored now; null when everything is. */
  const unsaved = (): string[] | null => {
    if (readOnly) return null;
    if (!timer.current && inFlight.current === 0 && !invalid.current.size && !failed.current) return null;
    const refused = invalid.current.size ? invalid.current : collect().refused;
    return [...refused.keys()].map(label);
  };

  const discard = () => writeUnsaved(record.id, {});

  useSessionAutosave(session, { saveNow, saveOnUnload, unsaved, discard });

  // Values that could not be saved before a reload are back in their fields, marked.
  useEffect(() => {
    if (readOnly) return;
    const kept = readUnsaved(record.id);
    const refused = new Map<string, string>();
    for (const [key, value] of Object.entries(kept)) {
      if (!(key in FIELD_LABELS)) continue;
      const problem = problemOf(key, sendable(key, value));
      if (problem) refused.set(key, t(problem));
    }
    if (!refused.size) return writeUnsaved(record.id, {});
    form.setFieldsValue(Object.fromEntries([...refused.keys()].map((key) => [key, kept[key]])) as OverviewValues);
    mark(refused, [], form.getFieldsValue(true) as OverviewValues);
    setState({ kind: 'partial', at: null, fields: [...refused.keys()] });
    // Once, when the form opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const handleValuesChange = () => {
    if (readOnly) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setState({ kind: 'pending' });
    const title = form.getFieldValue('title') as string | undefined;
    if (!title?.trim()) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void save(true);
    }, AUTOSAVE_DELAY_MS);
  };

  const handleFinish = async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const length = descriptionLength((form.getFieldValue('description') as string | undefined) ?? '');
    if (length < METADATA_LIMITS.shortDescriptionChars) {
      modal.confirm({
        title: t('editor.shortDescription.title'),
        content: t('editor.shortDescription.content', { count: length }),
        okText: t('editor.shortDescription.ok'),
        cancelText: t('editor.shortDescription.cancel'),
        onOk: () => save(false),
      });
      return;
    }
    await save(false);
  };

  return { state, label, handleValuesChange, handleFinish };
}
