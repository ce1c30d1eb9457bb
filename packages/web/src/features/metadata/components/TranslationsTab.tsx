import { Alert, Form, Input, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { metadataI18nFields } from '@portal/shared/contracts/metadata';
import { path } from '../../../api/routes';
import { formErrorText } from '../../../api/form';
import { PageSpinner } from '../../../components/PageSpinner';
import { lengthCount } from '../../../components/zod-rule';
import { ApiError, recordKey, resource, sendOnUnload, translationsKey, type EditorTabProps, type Page, type Translation } from '../api';
import { AUTOSAVE_DELAY_MS, patchValid, readUnsaved, SaveBar, same, writeUnsaved, type SaveState } from './autosave';
import { useFreshTranslations, useSessionAutosave, type EditorSession } from './editorSession';
import { useFeedback } from './useFeedback';

const FIELDS = [
  'title',
  'description',
  'data_source',
  'use_term',
  'usage_method',
  'citation',
  'time_description',
  'dist_unit',
  'dist_address',
  'dist_city',
  'dist_province',
  'dist_country',
] as const;
type Field = (typeof FIELDS)[number];
/** The short fields, on one line (their count inside); the others are text areas. */
const ONE_LINE = new Set<Field>(['title', 'dist_unit', 'dist_city', 'dist_province', 'dist_country']);
type TranslationValues = Partial<Record<Field, string>>;
const LABELS: Record<Field, string> = {
  title: 'editor.fields.title',
  description: 'editor.fields.description',
  data_source: 'editor.fields.dataSource',
  use_term: 'editor.fields.useTerm',
  usage_method: 'editor.fields.usageMethod',
  citation: 'editor.fields.citation',
  time_description: 'editor.fields.timeDescription',
  dist_unit: 'editor.translation.distUnit',
  dist_address: 'editor.translation.distAddress',
  dist_city: 'editor.translation.distCity',
  dist_province: 'editor.translation.distProvince',
  dist_country: 'editor.translation.distCountry',
};

/** Where this version's values that could not be saved wait across a reload (the Overview's own are apart). */
const unsavedKey = (version: Translation) => `portal.editor.unsaved.${version.metadata_id}.${version.language}`;

/** The catalogue key of a field's first problem by the server's own schema, or undefined when it is valid. */
const problemOf = (key: Field, value: unknown) => {
  const result = metadataI18nFields[key].safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

/**
 * Translations: the record's version in the other language (metadata-i18n), made when the record was.
 * It saves as it is typed in, as the Overview does (after a pause, on leaving the tab, with keepalive
 * requests when the page closes; values the schema refuses stay in this browser, marked, until fixed),
 * and its writes go through the session's queue. The Overview writes the English title and abstract
 * too, so the version is read afresh when the tab opens, after the Overview's pending saves.
 */
export function TranslationsTab({ record, readOnly, session }: EditorTabProps & { session: EditorSession }) {
  const { t } = useFeedback();
  const { translations, ready, error } = useFreshTranslations(record.id, session);
  if (!ready) return <PageSpinner />;
  if (error) return <Alert type="error" showIcon title={error.message || t('errors.formGeneric')} />;
  const version = translations.find((row) => row.language !== record.language);
  if (!version) return <Alert type="warning" showIcon title={t('editor.translation.missing')} />;
  return <TranslationForm record={record} readOnly={readOnly} version={version} session={session} />;
}

function TranslationForm({ record, readOnly, version, session }: EditorTabProps & { version: Translation; session: EditorSession }) {
  const { message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<TranslationValues>();
  const watched = Form.useWatch([], form) as TranslationValues | undefined;
  const language = t(`metadata.options.language.${version.language}`);
  const label = (key: string) => `${t(LABELS[key as Field] ?? key)} (${language})`;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(0);
  const [state, setState] = useState<SaveState>({ kind: 'none' });
  /** Fields whose value is not stored: refused (by the schema here or by the server), with their message. */
  const invalid = useRef(new Map<string, string>());
  const failed = useRef(false);
  /** The values as last stored: only what differs from them is sent. */
  const stored = useRef<Record<string, unknown>>(Object.fromEntries(FIELDS.map((key) => [key, version[key] ?? ''])));

  /** The changed fields, split into those that pass the server's schema and those that do not. */
  const collect = () => {
    const values = form.getFieldsValue(true) as TranslationValues;
    const changes: Record<string, unknown> = {};
    const refused = new Map<string, string>();
    for (const key of FIELDS) {
      const value = values[key] ?? '';
      if (same(value, stored.current[key])) continue;
      const problem = problemOf(key, value);
      if (problem) refused.set(key, t(problem));
      else changes[key] = value;
    }
    return { changes, refused, values };
  };

  /** Marks the refused fields and keeps their values for a reload; clears the marks of the others. */
  const mark = (refused: Map<string, string>, sent: string[], values: TranslationValues) => {
    const cleared = new Set([...sent, ...invalid.current.keys()]);
    invalid.current = refused;
    form.setFields([
      ...[...cleared].filter((key) => !refused.has(key)).map((name) => ({ name: name as Field, errors: [] as string[] })),
      ...[...refused].map(([name, error]) => ({ name: name as Field, errors: [error] })),
    ]);
    writeUnsaved(unsavedKey(version), Object.fromEntries([...refused.keys()].map((key) => [key, values[key as Field] ?? ''])));
  };

  const save = (auto: boolean) =>
    session.enqueue(async () => {
      const { changes, refused, values } = collect();
      setState({ kind: 'saving' });
      inFlight.current += 1;
      try {
        await patchValid(
          async (body) => {
            const row = await resource.update<Translation>('metadata-i18n', version.id, body);
            // The one cache entry of the translations, which the Overview reads too.
            queryClient.setQueryData(translationsKey(record.id), (old: Page<Translation> | undefined) =>
              old ? { ...old, results: old.results.map((item) => (item.id === row.id ? row : item)) } : old,
            );
          },
          changes,
          refused,
          stored.current,
        );
        failed.current = false;
        mark(refused, Object.keys(changes), values);
        const at = new Date();
        setState(refused.size ? { kind: 'partial', at, fields: [...refused.keys()] } : { kind: 'saved', at });
        if (!auto && !refused.size) message.success(t('metadata.saved'));
      } catch (error) {
        failed.current = true;
        const reason =
          error instanceof ApiError ? formErrorText({ ...error.reply, request_error: { status: error.status } }, t) : (error as Error).message || t('errors.formGeneric');
        setState({ kind: 'failed', reason });
      } finally {
        inFlight.current -= 1;
        await queryClient.invalidateQueries({ queryKey: recordKey(record.id) });
      }
    });

  const handlers = {
    saveNow: () => {
      if (!timer.current) return;
      clearTimeout(timer.current);
      timer.current = null;
      void save(true);
    },
    saveOnUnload: () => {
      if (!timer.current && inFlight.current === 0) return;
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      const { changes, refused, values } = collect();
      writeUnsaved(unsavedKey(version), Object.fromEntries([...refused.keys()].map((key) => [key, values[key as Field] ?? ''])));
      if (Object.keys(changes).length) sendOnUnload('PATCH', path('resourceItem', { name: 'metadata-i18n', id: version.id }), changes);
    },
    unsaved: (): string[] | null => {
      if (readOnly) return null;
      if (!timer.current && inFlight.current === 0 && !invalid.current.size && !failed.current) return null;
      const refused = invalid.current.size ? invalid.current : collect().refused;
      return [...refused.keys()].map(label);
    },
    discard: () => writeUnsaved(unsavedKey(version), {}),
  };
  useSessionAutosave(session, handlers);

  // Values that could not be saved before a reload are back in their fields, marked.
  useEffect(() => {
    if (readOnly) return;
    const kept = readUnsaved(unsavedKey(version));
    const refused = new Map<string, string>();
    for (const [key, value] of Object.entries(kept)) {
      if (!(FIELDS as readonly string[]).includes(key)) continue;
      const problem = problemOf(key as Field, value);
      if (problem) refused.set(key, t(problem));
    }
    if (!refused.size) return writeUnsaved(unsavedKey(version), {});
    form.setFieldsValue(Object.fromEntries([...refused.keys()].map((key) => [key, kept[key]])) as TranslationValues);
    mark(refused, [], form.getFieldsValue(true) as TranslationValues);
    setState({ kind: 'partial', at: null, fields: [...refused.keys()] });
    // Once, when the form opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const handleValuesChange = () => {
    if (readOnly) return;
    if (timer.current) clearTimeout(timer.current);
    setState({ kind: 'pending' });
    timer.current = setTimeout(() => {
      timer.current = null;
      void save(true);
    }, AUTOSAVE_DELAY_MS);
  };

  const handleSave = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    void save(false);
  };

  const initialValues = Object.fromEntries(FIELDS.map((key) => [key, version[key] ?? ''])) as TranslationValues;
  // A field left empty here while the record has its own text: pages in this language show that text.
  const own = t(`metadata.options.language.${record.language}`);
  const untranslated = (key: Field) => !readOnly && !(watched?.[key] ?? initialValues[key] ?? '').trim() && Boolean(String(record[key] ?? '').trim());
  return (
    <Form<TranslationValues>
      form={form}
      name="translation"
      layout="vertical"
      disabled={readOnly}
      initialValues={initialValues}
      onValuesChange={handleValuesChange}
      onFinish={handleSave}
    >
      <Alert type="info" showIcon title={t('editor.translation.intro', { language })} style={{ marginBottom: 16 }} />
      {!readOnly && <Typography.Paragraph type="secondary">{t('editor.translation.autosaveHint')}</Typography.Paragraph>}
      {!readOnly && <SaveBar state={state} onSave={handleSave} label={label} />}
      {FIELDS.map((key) => {
        const oneLine = ONE_LINE.has(key);
        // A text area's count sits at the right under it: the hint keeps clear of it.
        const hint = untranslated(key) ? (
          <span data-testid={`untranslated-${key}`} style={{ display: 'block', paddingInlineEnd: oneLine ? 0 : '6em' }}>
            {t('editor.translation.untranslated', { language, own })}
          </span>
        ) : undefined;
        return (
          <Form.Item key={key} name={key} label={label(key)} extra={hint}>
            {oneLine ? (
              <Input count={lengthCount(metadataI18nFields[key])} />
            ) : (
              <Input.TextArea autoSize={{ minRows: key === 'description' ? 4 : 2, maxRows: 12 }} count={lengthCount(metadataI18nFields[key], true)} />
            )}
          </Form.Item>
        );
      })}
    </Form>
  );
}
