import { Alert, Button, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { metadataI18nFields } from '@portal/shared/contracts/metadata';
import { PageSpinner } from '../../../components/PageSpinner';
import { zodRule } from '../../../components/zod-rule';
import { recordKey, resource, translationsKey, type EditorTabProps, type Page, type Translation } from '../api';
import { useFreshTranslations, type EditorSession } from './editorSession';
import { useFeedback } from './useFeedback';

const FIELDS = ['title', 'description', 'data_source', 'use_term', 'usage_method', 'citation', 'time_description'] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  title: 'editor.fields.title',
  description: 'editor.fields.description',
  data_source: 'editor.fields.dataSource',
  use_term: 'editor.fields.useTerm',
  usage_method: 'editor.fields.usageMethod',
  citation: 'editor.fields.citation',
  time_description: 'editor.fields.timeDescription',
};

/**
 * Translations: the record's version in the other language (metadata-i18n), made when the record was.
 * The Overview writes its English title and abstract too, so the version is read afresh when the tab
 * opens (after the Overview's pending saves), and what is saved here is what the Overview reads next.
 */
export function TranslationsTab({ record, readOnly, session }: EditorTabProps & { session: EditorSession }) {
  const { t } = useFeedback();
  const { translations, ready, error } = useFreshTranslations(record.id, session);
  if (!ready) return <PageSpinner />;
  if (error) return <Alert type="error" showIcon title={error.message || t('errors.formGeneric')} />;
  const version = translations.find((row) => row.language !== record.language);
  if (!version) return <Alert type="warning" showIcon title={t('editor.translation.missing')} />;
  return <TranslationForm record={record} readOnly={readOnly} version={version} />;
}

function TranslationForm({ record, readOnly, version }: EditorTabProps & { version: Translation }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Partial<Translation>>();
  const language = t(`metadata.options.language.${version.language}`);

  const save = async (values: Partial<Translation>) => {
    const changes = Object.fromEntries(FIELDS.map((key) => [key, values[key] ?? '']));
    const row = await run(() => resource.update<Translation>('metadata-i18n', version.id, changes), form);
    if (!row) return;
    message.success(t('metadata.saved'));
    // The Overview shows the English title and abstract from this entry when it opens next.
    queryClient.setQueryData(translationsKey(record.id), (old: Page<Translation> | undefined) =>
      old ? { ...old, results: old.results.map((item) => (item.id === row.id ? row : item)) } : old,
    );
    await queryClient.invalidateQueries({ queryKey: recordKey(record.id) });
  };

  return (
    <Form form={form} name="translation" layout="vertical" disabled={readOnly} initialValues={version} onFinish={save}>
      <Alert type="info" showIcon title={t('editor.translation.intro', { language })} style={{ marginBottom: 16 }} />
      {FIELDS.map((key) => (
        <Form.Item key={key} name={key} label={`${t(LABELS[key])} (${language})`} rules={[zodRule(metadataI18nFields[key], t)]}>
          {key === 'title' ? <Input /> : <Input.TextArea autoSize={{ minRows: key === 'description' ? 4 : 2, maxRows: 12 }} />}
        </Form.Item>
      ))}
      {!readOnly && (
        <Button type="primary" htmlType="submit">
          {t('editor.save')}
        </Button>
      )}
    </Form>
  );
}
