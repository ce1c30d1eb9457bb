import { Alert, Button, Col, Descriptions, Divider, Form, Input, Modal, Radio, Row, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  countWords,
  descriptionLength,
  DOI_CATEGORIES,
  FUND_THIRD_POLE,
  FUND_THREE_POLE,
  licenseLabelKey,
  LICENSES,
  METADATA_LIMITS,
  metadataUpdateSchema,
  PROTECTION_PERIODS,
  SHARING_POLICIES,
  SITE_VARIANTS,
  SUBMITTING_TYPES,
  TEMPORAL_RESOLUTIONS,
} from '@portal/shared';
import { fundCreateSchema, metadataI18nFields } from '@portal/shared/contracts/metadata';
import { pageLanguage } from '../../../app/i18n';
import { PageSpinner } from '../../../components/PageSpinner';
import { useBusy } from '../../../components/useBusy';
import { lengthCount, zodRule } from '../../../components/zod-rule';
import { formErrorText } from '../../../api/form';
import {
  ApiError,
  base,
  metadataApi,
  recordKey,
  resource,
  sendOnUnload,
  translationsKey,
  type EditorTabProps,
  type Fund,
  type MetaFund,
  type MetadataRecord,
  type Page,
  type Translation,
} from '../api';
import { AUTOSAVE_DELAY_MS, patchValid, readUnsaved as readKept, SaveBar, same, writeUnsaved as writeKept, type SaveState } from './autosave';
import { useFreshTranslations, type EditorSession } from './editorSession';
import { useTypedInput } from './useTypedInput';
import { useFeedback } from './useFeedback';

/** The record's own fields the Overview edits (PUT /api/metadata/metadata/{id}/). */
const RECORD_FIELDS = [
  'title',
  'description',
  'data_source',
  'use_term',
  'usage_method',
  'citation',
  'file_size',
  'doi',
  'doi_category',
  'protection_period',
  'protection_description',
  'time_start',
  'time_end',
  'time_description',
  'east',
  'south',
  'west',
  'north',
  'scale',
  'coordinate_system',
  'projection',
  'license',
  'temporal_resolution',
  'spatial_resolution',
  'dist_unit',
  'dist_country',
  'dist_province',
  'dist_city',
  'dist_address',
  'dist_phone',
  'dist_email',
  'sharing_policy',
  'submitting_type',
  'platform',
  'subtopic_three_pole',
  'subtopic_third_pole',
] as const satisfies readonly (keyof MetadataRecord)[];

/** Each field's label (catalogue key under `editor.fields.`), in the form, its errors and the document view. */
export const FIELD_LABELS: Record<RecordField | 'en_title' | 'en_description', string> = {
  title: 'title',
  en_title: 'titleEn',
  description: 'description',
  en_description: 'descriptionEn',
  data_source: 'dataSource',
  use_term: 'useTerm',
  usage_method: 'usageMethod',
  citation: 'citation',
  file_size: 'fileSize',
  doi: 'doi',
  doi_category: 'doiCategory',
  protection_period: 'protectionPeriod',
  protection_description: 'protectionDescription',
  time_start: 'timeStart',
  time_end: 'timeEnd',
  time_description: 'timeDescription',
  east: 'east',
  south: 'south',
  west: 'west',
  north: 'north',
  scale: 'scale',
  coordinate_system: 'coordinateSystem',
  projection: 'projection',
  license: 'license',
  temporal_resolution: 'temporalResolution',
  spatial_resolution: 'spatialResolution',
  dist_unit: 'dist_unit',
  dist_country: 'dist_country',
  dist_province: 'dist_province',
  dist_city: 'dist_city',
  dist_address: 'dist_address',
  dist_phone: 'dist_phone',
  dist_email: 'dist_email',
  sharing_policy: 'sharingPolicy',
  submitting_type: 'submittingType',
  platform: 'platform',
  subtopic_three_pole: 'subtopicThreePole',
  subtopic_third_pole: 'subtopicThirdPole',
};
/** Fields of the submission checklist (spec section 5): they carry the required mark. */
const REQUIRED = new Set<string>(['title', 'en_title', 'description', 'en_description', 'file_size', 'usage_method', 'east', 'south', 'west', 'north', 'platform', 'subtopic_three_pole', 'subtopic_third_pole']);

/** The Overview's number fields: cleared, they are stored as null; every other field as ''. */
const NUMBER_FIELDS = new Set<string>(['file_size', 'east', 'south', 'west', 'north', 'scale']);
/** Fields shown as a Select: a stored '' shows the placeholder. */
const SELECT_FIELDS = new Set<string>(['projection', 'license', 'temporal_resolution']);

const shape = metadataUpdateSchema.shape;

type RecordField = (typeof RECORD_FIELDS)[number];
type OverviewValues = Partial<Record<RecordField, unknown>> & { en_title?: string; en_description?: string };

/** A field's value as the server takes it: a cleared number is null, a cleared text or option ''. */
const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/**
 * A field's value as the server takes it. A number field holds what was typed: a number is sent as
 * one, anything else (`12a`) as typed, so that the schema refuses it at the field instead of the
 * letter silently vanishing.
 */
const sendable = (key: string, value: unknown) => {
  if (NUMBER_FIELDS.has(key)) {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') return value;
    const typed = value.trim();
    return typed === '' ? null : NUMBER_TEXT.test(typed) ? Number(typed) : value;
  }
  return value ?? '';
};

/** The fields the form shows for this record (the sub-topic numbers only with their fund). */
const fieldsOf = (record: MetadataRecord): RecordField[] =>
  RECORD_FIELDS.filter(
    (key) =>
      (key !== 'subtopic_three_pole' || record.fund.includes(FUND_THREE_POLE)) && (key !== 'subtopic_third_pole' || record.fund.includes(FUND_THIRD_POLE)),
  );

type OverviewProps = EditorTabProps & { session: EditorSession };

/**
 * Overview: the record's fields, saved explicitly or automatically once the title is filled in
 * (spec section 4). The English title and abstract of a Chinese record are its `en` translation,
 * which the Translations tab edits too: it is read afresh whenever the tab opens.
 */
export function OverviewTab(props: OverviewProps) {
  const { t } = useFeedback();
  const chinese = props.record.language === 'zh-hans';
  const { translations, ready, error } = useFreshTranslations(props.record.id, props.session, chinese);
  if (!ready) return <PageSpinner />;
  if (error) return <Alert type="error" showIcon title={error.message || t('errors.formGeneric')} />;
  const english = chinese ? translations.find((row) => row.language === 'en') : undefined;
  if (props.readOnly) return <RecordDocument record={props.record} english={english} />;
  return <OverviewForm {...props} english={english} />;
}

/** Option fields and the catalogue prefix of their labels. */
const OPTION_LABELS: Partial<Record<RecordField, string>> = {
  doi_category: 'metadata.options.doiCategory.',
  protection_period: 'metadata.options.protectionPeriod.',
  temporal_resolution: 'metadata.options.temporalResolution.',
  sharing_policy: 'metadata.options.sharingPolicy.',
  submitting_type: 'metadata.options.submittingType.',
  platform: 'metadata.options.platform.',
};

/** A record that cannot be changed (in review, published), read as a document: labels and values. */
function RecordDocument({ record, english }: { record: MetadataRecord; english: Translation | undefined }) {
  const { t } = useFeedback();
  const { data: funds } = useQuery({ queryKey: ['metadata', 'funds'], queryFn: () => resource.list<Fund>('fund', { pageSize: 1000 }) });
  const valueOf = (key: RecordField): string => {
    const value = record[key];
    if (value === null || value === undefined || value === '') return '';
    if (key === 'license') return t(licenseLabelKey(String(value)));
    const prefix = OPTION_LABELS[key];
    return prefix ? t(`${prefix}${String(value)}`) : String(value);
  };
  const keys: (RecordField | 'en_title' | 'en_description')[] = fieldsOf(record).flatMap((key) =>
    key === 'title' && english ? [key, 'en_title' as const] : key === 'description' && english ? [key, 'en_description' as const] : [key],
  );
  const fundNames = record.fund.map((id) => {
    const fund = funds?.results.find((row) => row.id === id);
    return fund ? (pageLanguage === 'en' ? fund.name_en || fund.name : fund.name) : id;
  });
  const items = [
    ...keys.map((key) => {
      const value = key === 'en_title' ? (english?.title ?? '') : key === 'en_description' ? (english?.description ?? '') : valueOf(key);
      return {
        key,
        label: t(`editor.fields.${FIELD_LABELS[key]}`),
        children: value ? <span style={{ whiteSpace: 'pre-wrap' }}>{value}</span> : <Typography.Text type="secondary">—</Typography.Text>,
        span: LONG_FIELDS.has(key) ? ('filled' as const) : undefined,
      };
    }),
    { key: 'funds', label: t('editor.fields.funds'), children: fundNames.length ? fundNames.join(t('editor.listSeparator')) : '—', span: 'filled' as const },
  ];
  return <Descriptions data-testid="record-document" bordered size="small" column={{ xs: 1, md: 2 }} items={items} />;
}

/** Fields shown across the whole width of the document view. */
const LONG_FIELDS = new Set<string>(['title', 'en_title', 'description', 'en_description', 'data_source', 'use_term', 'usage_method', 'citation', 'time_description', 'protection_description', 'dist_address']);

/** Where the values of fields that could not be saved wait, across a reload, until they are fixed. */
const unsavedKey = (id: string) => `portal.editor.unsaved.${id}`;

const readUnsaved = (id: string) => readKept(unsavedKey(id));
const writeUnsaved = (id: string, values: Record<string, unknown>) => writeKept(unsavedKey(id), values);

/** The catalogue key of a field's first problem by the server's own schema, or undefined when it is valid. */
function problemOf(key: string, value: unknown): string | undefined {
  const schema = key === 'en_title' ? metadataI18nFields.title : key === 'en_description' ? metadataI18nFields.description : shape[key as RecordField];
  const result = schema?.safeParse(value);
  return result && !result.success ? result.error.issues[0]?.message : undefined;
}

function OverviewForm({ record, readOnly, session, english }: OverviewProps & { english: Translation | undefined }) {
  const { message, modal, t } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<OverviewValues>();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** Saves started and not yet answered: the page closing then sends their values again. */
  const inFlight = useRef(0);
  const [state, setState] = useState<SaveState>({ kind: 'none' });
  /** Fields whose value is not stored: refused (by the schema here or by the server), with their message. */
  const invalid = useRef(new Map<string, string>());
  /** The last save failed as a whole (no connection, no right): its changes are not stored. */
  const failed = useRef(false);
  const description = Form.useWatch('description', form) as string | undefined;
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
    if (Object.keys(changes).length) sendOnUnload('PATCH', `${base('metadata')}${record.id}/`, changes);
    if (englishChange) sendOnUnload('PATCH', `${base('metadata-i18n')}${englishChange.id}/`, englishChange.values);
  };

  /** The labels of what is not stored now; null when everything is. */
  const unsaved = (): string[] | null => {
    if (readOnly) return null;
    if (!timer.current && inFlight.current === 0 && !invalid.current.size && !failed.current) return null;
    const refused = invalid.current.size ? invalid.current : collect().refused;
    return [...refused.keys()].map(label);
  };

  const discard = () => writeUnsaved(record.id, {});

  const handlers = useRef({ saveNow, saveOnUnload, unsaved, discard });
  handlers.current = { saveNow, saveOnUnload, unsaved, discard };

  useEffect(() => {
    const overview = {
      saveNow: () => handlers.current.saveNow(),
      saveOnUnload: () => handlers.current.saveOnUnload(),
      unsaved: () => handlers.current.unsaved(),
      discard: () => handlers.current.discard(),
    };
    session.autosave = overview;
    return () => {
      // Leaving the tab keeps what was typed: the pending autosave is queued now.
      overview.saveNow();
      if (session.autosave === overview) session.autosave = null;
    };
  }, [session]);

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

  const saveBar = !readOnly && <SaveBar state={state} onSave={() => void handleFinish()} label={label} />;

  const initialValues: OverviewValues = {
    // A stored '' in a Select shows its placeholder, not an empty choice.
    ...Object.fromEntries(RECORD_FIELDS.map((key) => [key, SELECT_FIELDS.has(key) && record[key] === '' ? undefined : (record[key] ?? undefined)])),
    en_title: english?.title,
    en_description: english?.description,
  };

  const options = (values: readonly string[], prefix: string) => values.map((value) => ({ value, label: t(`${prefix}${value}`) }));
  // Limited fields count their characters; past the limit the text stays and the field says why.
  const text = (name: string, label: string, rows = 0) => (
    <Form.Item name={name} label={t(label)} required={REQUIRED.has(name)}>
      {rows ? (
        <Input.TextArea autoSize={{ minRows: rows, maxRows: 12 }} count={lengthCount(shape[name as RecordField], true)} />
      ) : (
        <Input count={lengthCount(shape[name as RecordField])} />
      )}
    </Form.Item>
  );
  // Typed text, not a clamping number box: 200 east stays 200 and is refused at the field with the
  // schema's message (it became 180 silently), a letter is refused instead of vanishing.
  const number = (name: string, label: string) => (
    <Form.Item name={name} label={t(label)} required={REQUIRED.has(name)}>
      <Input inputMode="decimal" autoComplete="off" />
    </Form.Item>
  );

  return (
    <Form<OverviewValues>
      form={form}
      name="overview"
      layout="vertical"
      disabled={readOnly}
      initialValues={initialValues}
      onValuesChange={handleValuesChange}
      onFinish={handleFinish}
    >
      <Typography.Paragraph type="secondary">{t('editor.autosaveHint')}</Typography.Paragraph>
      {saveBar}
      <Divider titlePlacement="start">{t('editor.sections.basic')}</Divider>
      <Form.Item name="title" label={t('editor.fields.title')} required rules={[zodRule(shape.title, t)]} extra={t('editor.fields.titleHint')}>
        <Input count={lengthCount(shape.title)} />
      </Form.Item>
      {english && (
        <Form.Item name="en_title" label={t('editor.fields.titleEn')} required>
          <Input count={lengthCount(metadataI18nFields.title)} />
        </Form.Item>
      )}
      <Form.Item
        name="description"
        label={t('editor.fields.description')}
        required
        extra={t('editor.fields.wordCount', { count: countWords(description ?? ''), chars: descriptionLength(description ?? '') })}
      >
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} count={lengthCount(shape.description, true)} />
      </Form.Item>
      {english && (
        <Form.Item name="en_description" label={t('editor.fields.descriptionEn')} required>
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} count={lengthCount(metadataI18nFields.description, true)} />
        </Form.Item>
      )}
      {text('data_source', 'editor.fields.dataSource', 2)}
      {text('use_term', 'editor.fields.useTerm', 2)}
      {text('usage_method', 'editor.fields.usageMethod', 2)}
      {text('citation', 'editor.fields.citation', 2)}
      <Row gutter={16}>
        <Col xs={24} md={8}>
          {number('file_size', 'editor.fields.fileSize')}
        </Col>
        <Col xs={24} md={8}>
          {text('doi', 'editor.fields.doi')}
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="doi_category" label={t('editor.fields.doiCategory')}>
            <Radio.Group options={options(DOI_CATEGORIES, 'metadata.options.doiCategory.')} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="protection_period" label={t('editor.fields.protectionPeriod')}>
            <Radio.Group options={options(PROTECTION_PERIODS, 'metadata.options.protectionPeriod.')} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          {text('protection_description', 'editor.fields.protectionDescription')}
        </Col>
      </Row>

      <Divider titlePlacement="start">{t('editor.sections.time')}</Divider>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="time_start" label={t('editor.fields.timeStart')} rules={[zodRule(shape.time_start, t)]}>
            <Input type="date" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="time_end" label={t('editor.fields.timeEnd')} rules={[zodRule(shape.time_end, t)]}>
            <Input type="date" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="temporal_resolution" label={t('editor.fields.temporalResolution')}>
            <Select allowClear placeholder={t('editor.choose')} options={options(TEMPORAL_RESOLUTIONS, 'metadata.options.temporalResolution.')} />
          </Form.Item>
        </Col>
      </Row>
      {text('time_description', 'editor.fields.timeDescription', 2)}

      <Divider titlePlacement="start">{t('editor.sections.spatial')}</Divider>
      <Row gutter={16}>
        <Col xs={24} sm={12} md={6}>
          {number('east', 'editor.fields.east')}
        </Col>
        <Col xs={24} sm={12} md={6}>
          {number('south', 'editor.fields.south')}
        </Col>
        <Col xs={24} sm={12} md={6}>
          {number('west', 'editor.fields.west')}
        </Col>
        <Col xs={24} sm={12} md={6}>
          {number('north', 'editor.fields.north')}
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={6}>
          {number('scale', 'editor.fields.scale')}
        </Col>
        <Col xs={24} md={6}>
          {text('coordinate_system', 'editor.fields.coordinateSystem')}
        </Col>
        <Col xs={24} md={6}>
          <ProjectionField label={t('editor.fields.projection')} placeholder={t('editor.choose')} />
        </Col>
        <Col xs={24} md={6}>
          {text('spatial_resolution', 'editor.fields.spatialResolution')}
        </Col>
      </Row>

      <Divider titlePlacement="start">{t('editor.sections.distribution')}</Divider>
      <Row gutter={16}>
        {(['dist_unit', 'dist_country', 'dist_province', 'dist_city'] as const).map((name) => (
          <Col xs={24} md={6} key={name}>
            {text(name, `editor.fields.${name}`)}
          </Col>
        ))}
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          {text('dist_address', 'editor.fields.dist_address')}
        </Col>
        <Col xs={24} md={6}>
          {text('dist_phone', 'editor.fields.dist_phone')}
        </Col>
        <Col xs={24} md={6}>
          <Form.Item name="dist_email" label={t('editor.fields.dist_email')} rules={[zodRule(shape.dist_email, t)]}>
            <Input count={lengthCount(shape.dist_email)} />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start">{t('editor.sections.sharing')}</Divider>
      <Form.Item name="license" label={t('editor.fields.license')}>
        <Select allowClear placeholder={t('editor.choose')} options={LICENSES.map((value) => ({ value, label: t(licenseLabelKey(value)) }))} />
      </Form.Item>
      <Form.Item name="sharing_policy" label={t('editor.fields.sharingPolicy')}>
        <Radio.Group options={options(SHARING_POLICIES, 'metadata.options.sharingPolicy.')} />
      </Form.Item>
      <Form.Item name="submitting_type" label={t('editor.fields.submittingType')}>
        <Radio.Group options={options(SUBMITTING_TYPES, 'metadata.options.submittingType.')} />
      </Form.Item>
      <Form.Item name="platform" label={t('editor.fields.platform')} required>
        <Radio.Group options={options(SITE_VARIANTS, 'metadata.options.platform.')} />
      </Form.Item>

      <Divider titlePlacement="start">{t('editor.sections.funding')}</Divider>
      <FundsField record={record} readOnly={readOnly} session={session} />
      {record.fund.includes(FUND_THREE_POLE) && text('subtopic_three_pole', 'editor.fields.subtopicThreePole')}
      {record.fund.includes(FUND_THIRD_POLE) && text('subtopic_third_pole', 'editor.fields.subtopicThirdPole')}

    </Form>
  );
}

/** Projection choices come from /metadata/projections/. */
function ProjectionField({ label, placeholder }: { label: string; placeholder: string }) {
  const { data } = useQuery({ queryKey: ['metadata', 'projections'], queryFn: metadataApi.projections, staleTime: Infinity });
  return (
    <Form.Item name="projection" label={label}>
      <Select allowClear showSearch placeholder={placeholder} options={(data?.results ?? []).map((value) => ({ value, label: value }))} />
    </Form.Item>
  );
}

/** Up to 3 funding projects from fund/, linked through meta-fund/; a new one can be created here. */
function FundsField({ record, readOnly, session }: EditorTabProps & { session: EditorSession }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [fundForm] = Form.useForm<{ name: string; name_en: string; funder_identifier?: string }>();
  /** Add waits for its save: a double click creates the project once. */
  const adding = useBusy();
  const closeFund = useTypedInput({ session, form: fundForm, active: creating, title: t('editor.fundNew'), onClose: () => setCreating(false) });
  const { data: funds } = useQuery({ queryKey: ['metadata', 'funds'], queryFn: () => resource.list<Fund>('fund', { pageSize: 1000 }) });
  const { data: links } = useQuery({
    queryKey: ['metadata', 'meta-fund', record.id],
    queryFn: () => resource.list<MetaFund>('meta-fund', { metadata__id: record.id }),
  });
  const english = pageLanguage === 'en';

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['metadata', 'meta-fund', record.id] });
    await queryClient.invalidateQueries({ queryKey: recordKey(record.id) });
  };

  const change = async (ids: string[]) => {
    const added = ids.filter((id) => !record.fund.includes(id));
    const removed = (links?.results ?? []).filter((link) => !ids.includes(link.fund_id));
    await run(async () => {
      for (const fund of added) await resource.create('meta-fund', { metadata: record.id, fund });
      for (const link of removed) await resource.remove('meta-fund', link.id);
      return true;
    });
    await refresh();
  };

  const create = async (values: { name: string; name_en: string; funder_identifier?: string }) => {
    const done = await run(() => resource.create<Fund>('fund', { ...values, metadata: record.id }), fundForm);
    if (!done) return;
    message.success(t('editor.addedSuccess'));
    setCreating(false);
    fundForm.resetFields();
    await queryClient.invalidateQueries({ queryKey: ['metadata', 'funds'] });
    await refresh();
  };

  return (
    <>
      <Form.Item label={t('editor.fields.funds')} extra={t('editor.fundsHint', { max: METADATA_LIMITS.fundsMax })}>
        <Space.Compact style={{ width: '100%' }}>
          <Select
            mode="multiple"
            aria-label={t('editor.fields.funds')}
            value={record.fund}
            maxCount={METADATA_LIMITS.fundsMax}
            optionFilterProp="label"
            onChange={(ids: string[]) => void change(ids)}
            options={(funds?.results ?? []).map((fund) => ({ value: fund.id, label: english ? fund.name_en || fund.name : fund.name }))}
            disabled={readOnly}
          />
          {!readOnly && record.fund.length < METADATA_LIMITS.fundsMax && <Button onClick={() => setCreating(true)}>{t('editor.fundNew')}</Button>}
        </Space.Compact>
      </Form.Item>
      <Modal
        open={creating}
        title={t('editor.fundNew')}
        onCancel={closeFund}
        onOk={() => void adding.submit(fundForm, create)}
        confirmLoading={adding.busy}
        okText={t('editor.add')}
        cancelText={t('editor.cancel')}
        destroyOnHidden
      >
        <Form form={fundForm} name="fund" layout="vertical" onFinish={(values) => void adding.run(() => create(values))}>
          <Form.Item name="name" label={t('editor.fundName')} rules={[zodRule(fundCreateSchema.shape.name, t)]}>
            <Input count={lengthCount(fundCreateSchema.shape.name)} />
          </Form.Item>
          <Form.Item name="name_en" label={t('editor.fundNameEn')} rules={[zodRule(fundCreateSchema.shape.name_en, t)]}>
            <Input count={lengthCount(fundCreateSchema.shape.name_en)} />
          </Form.Item>
          <Form.Item name="funder_identifier" label={t('identifiers.funder')} extra={t('identifiers.funderHelp')} rules={[zodRule(fundCreateSchema.shape.funder_identifier, t)]}>
            <Input autoComplete="off" spellCheck={false} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
