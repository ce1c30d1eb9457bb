import { Alert, Button, Col, Divider, Form, Input, InputNumber, Modal, Radio, Row, Select, Space, Typography } from 'antd';
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
import { fundCreateSchema } from '@portal/shared/contracts/metadata';
import { pageLanguage } from '../../../app/i18n';
import { PageSpinner } from '../../../components/PageSpinner';
import { zodRule } from '../../../components/zod-rule';
import {
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
import { useFreshTranslations, type EditorSession } from './editorSession';
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

/** The Overview's number fields: cleared, they are stored as null; every other field as ''. */
const NUMBER_FIELDS = new Set<string>(['file_size', 'east', 'south', 'west', 'north', 'scale']);
/** Fields shown as a Select: a stored '' shows the placeholder. */
const SELECT_FIELDS = new Set<string>(['projection', 'license', 'temporal_resolution']);

const AUTOSAVE_DELAY_MS = 1500;
const shape = metadataUpdateSchema.shape;

type RecordField = (typeof RECORD_FIELDS)[number];
type OverviewValues = Partial<Record<RecordField, unknown>> & { en_title?: string; en_description?: string };

/** A field's value as the server takes it: a cleared number is null, a cleared text or option ''. */
const sendable = (key: string, value: unknown) => {
  if (NUMBER_FIELDS.has(key)) return value === undefined || value === '' ? null : value;
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
  return <OverviewForm {...props} english={chinese ? translations.find((row) => row.language === 'en') : undefined} />;
}

function OverviewForm({ record, readOnly, session, english }: OverviewProps & { english: Translation | undefined }) {
  const { run, message, modal, t } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<OverviewValues>();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** Saves started and not yet answered: the page closing then sends their values again. */
  const inFlight = useRef(0);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle');
  const description = Form.useWatch('description', form) as string | undefined;
  /** What the latest render knows, for saves that run later (after a tab change, on leaving). */
  const latest = useRef({ record, english });
  latest.current = { record, english };
  /** The English title and abstract as last stored: only a change of them is written to the translation. */
  const storedEnglish = useRef({ title: english?.title ?? '', description: english?.description ?? '' });

  /** The changes to send: every field the form shows, and the English ones only when they changed. */
  const collect = () => {
    const values = form.getFieldsValue(true) as OverviewValues;
    const { record: current, english: translation } = latest.current;
    const changes = Object.fromEntries(fieldsOf(current).map((key) => [key, sendable(key, values[key])]));
    const englishValues = { title: values.en_title ?? '', description: values.en_description ?? '' };
    const englishChanged =
      translation && (englishValues.title !== storedEnglish.current.title || englishValues.description !== storedEnglish.current.description);
    return { changes, english: englishChanged ? { id: translation.id, values: englishValues } : undefined };
  };

  const save = (auto: boolean) =>
    session.enqueue(async () => {
      const { changes, english: englishChange } = collect();
      setStatus('saving');
      inFlight.current += 1;
      const done = await run(async () => {
        await metadataApi.update(record.id, changes);
        if (englishChange) {
          const row = await resource.update<Translation>('metadata-i18n', englishChange.id, englishChange.values);
          storedEnglish.current = englishChange.values;
          // The one cache entry of the translations, which the Translations tab reads too.
          queryClient.setQueryData(translationsKey(record.id), (old: Page<Translation> | undefined) =>
            old ? { ...old, results: old.results.map((item) => (item.id === row.id ? row : item)) } : old,
          );
        }
        return true;
      }, form);
      inFlight.current -= 1;
      setStatus(done ? 'saved' : 'idle');
      if (done && !auto) message.success(t('metadata.saved'));
      await queryClient.invalidateQueries({ queryKey: recordKey(record.id) });
    });

  const saveNow = () => {
    if (!timer.current) return;
    clearTimeout(timer.current);
    timer.current = null;
    void save(true);
  };

  /** The page is closing: what is unsaved (or still on its way) goes with keepalive requests. */
  const saveOnUnload = () => {
    if (!timer.current && inFlight.current === 0) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const { changes, english: englishChange } = collect();
    sendOnUnload('PUT', `${base('metadata')}${record.id}/`, changes);
    if (englishChange) sendOnUnload('PATCH', `${base('metadata-i18n')}${englishChange.id}/`, englishChange.values);
  };

  const handlers = useRef({ saveNow, saveOnUnload });
  handlers.current = { saveNow, saveOnUnload };

  useEffect(() => {
    const overview = { saveNow: () => handlers.current.saveNow(), saveOnUnload: () => handlers.current.saveOnUnload() };
    session.overview = overview;
    return () => {
      // Leaving the tab keeps what was typed: the pending autosave is queued now.
      overview.saveNow();
      if (session.overview === overview) session.overview = null;
    };
  }, [session]);

  const handleValuesChange = () => {
    if (readOnly) return;
    const title = form.getFieldValue('title') as string | undefined;
    if (!title?.trim()) return;
    if (timer.current) clearTimeout(timer.current);
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

  const initialValues: OverviewValues = {
    // A stored '' in a Select shows its placeholder, not an empty choice.
    ...Object.fromEntries(RECORD_FIELDS.map((key) => [key, SELECT_FIELDS.has(key) && record[key] === '' ? undefined : (record[key] ?? undefined)])),
    en_title: english?.title,
    en_description: english?.description,
  };

  const options = (values: readonly string[], prefix: string) => values.map((value) => ({ value, label: t(`${prefix}${value}`) }));
  const text = (name: string, label: string, rows = 0) => (
    <Form.Item name={name} label={t(label)}>
      {rows ? <Input.TextArea autoSize={{ minRows: rows, maxRows: 12 }} /> : <Input />}
    </Form.Item>
  );
  const number = (name: string, label: string, min?: number, max?: number) => (
    <Form.Item name={name} label={t(label)}>
      <InputNumber style={{ width: '100%' }} min={min} max={max} />
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
      <Divider titlePlacement="start">{t('editor.sections.basic')}</Divider>
      <Form.Item name="title" label={t('editor.fields.title')} rules={[zodRule(shape.title, t)]} extra={t('editor.fields.titleHint')}>
        <Input />
      </Form.Item>
      {english && (
        <Form.Item name="en_title" label={t('editor.fields.titleEn')}>
          <Input />
        </Form.Item>
      )}
      <Form.Item
        name="description"
        label={t('editor.fields.description')}
        extra={t('editor.fields.wordCount', { count: countWords(description ?? ''), chars: descriptionLength(description ?? '') })}
      >
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} />
      </Form.Item>
      {english && (
        <Form.Item name="en_description" label={t('editor.fields.descriptionEn')}>
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} />
        </Form.Item>
      )}
      {text('data_source', 'editor.fields.dataSource', 2)}
      {text('use_term', 'editor.fields.useTerm', 2)}
      {text('usage_method', 'editor.fields.usageMethod', 2)}
      {text('citation', 'editor.fields.citation', 2)}
      <Row gutter={16}>
        <Col xs={24} md={8}>
          {number('file_size', 'editor.fields.fileSize', 0)}
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
        <Col xs={12} md={6}>
          {number('east', 'editor.fields.east', -180, 180)}
        </Col>
        <Col xs={12} md={6}>
          {number('south', 'editor.fields.south', -90, 90)}
        </Col>
        <Col xs={12} md={6}>
          {number('west', 'editor.fields.west', -180, 180)}
        </Col>
        <Col xs={12} md={6}>
          {number('north', 'editor.fields.north', -90, 90)}
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={6}>
          {number('scale', 'editor.fields.scale', 1)}
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
            <Input />
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
      <Form.Item name="platform" label={t('editor.fields.platform')}>
        <Radio.Group options={options(SITE_VARIANTS, 'metadata.options.platform.')} />
      </Form.Item>

      <Divider titlePlacement="start">{t('editor.sections.funding')}</Divider>
      <FundsField record={record} readOnly={readOnly} />
      {record.fund.includes(FUND_THREE_POLE) && text('subtopic_three_pole', 'editor.fields.subtopicThreePole')}
      {record.fund.includes(FUND_THIRD_POLE) && text('subtopic_third_pole', 'editor.fields.subtopicThirdPole')}

      {!readOnly && (
        <Space style={{ position: 'sticky', bottom: 0, background: '#fff', padding: '12px 0', width: '100%' }}>
          <Button type="primary" htmlType="submit">
            {t('editor.save')}
          </Button>
          <Typography.Text type="secondary" aria-live="polite">
            {status === 'saving' ? t('editor.saving') : status === 'saved' ? t('editor.autosaved') : ''}
          </Typography.Text>
        </Space>
      )}
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
function FundsField({ record, readOnly }: EditorTabProps) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [fundForm] = Form.useForm<{ name: string; name_en: string }>();
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

  const create = async (values: { name: string; name_en: string }) => {
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
      <Modal open={creating} title={t('editor.fundNew')} onCancel={() => setCreating(false)} onOk={() => fundForm.submit()} okText={t('editor.add')} cancelText={t('editor.cancel')} destroyOnHidden>
        <Form form={fundForm} name="fund" layout="vertical" onFinish={create}>
          <Form.Item name="name" label={t('editor.fundName')} rules={[zodRule(fundCreateSchema.shape.name, t)]}>
            <Input />
          </Form.Item>
          <Form.Item name="name_en" label={t('editor.fundNameEn')} rules={[zodRule(fundCreateSchema.shape.name_en, t)]}>
            <Input />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
