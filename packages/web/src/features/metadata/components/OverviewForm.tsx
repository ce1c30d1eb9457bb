import { Col, Divider, Form, Input, Radio, Row, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  countWords,
  descriptionLength,
  DOI_CATEGORIES,
  FUND_THIRD_POLE,
  FUND_THREE_POLE,
  licenseLabelKey,
  LICENSES,
  PROTECTION_PERIODS,
  REQUIRED_FIELDS,
  SHARING_POLICIES,
  SITE_VARIANTS,
  SUBMITTING_TYPES,
  TEMPORAL_RESOLUTIONS,
} from '@portal/shared';
import { metadataI18nFields } from '@portal/shared/contracts/metadata';
import { lengthCount, zodRule } from '../../../components/zod-rule';
import { metadataApi, type EditorTabProps, type Translation } from '../api';
import { SaveBar } from './autosave';
import type { EditorSession } from './editorSession';
import { FundsField } from './FundsField';
import { RECORD_FIELDS, SELECT_FIELDS, shape, type OverviewValues, type RecordField } from './overviewFields';
import { useFeedback } from './useFeedback';
import { useOverviewAutosave } from './useOverviewAutosave';

type OverviewFormProps = EditorTabProps & { session: EditorSession; english: Translation | undefined };

/** The Overview's form: the record's fields by section, with the save line; saving is useOverviewAutosave's. */
export function OverviewForm({ record, readOnly, session, english }: OverviewFormProps) {
  const { t } = useFeedback();
  const [form] = Form.useForm<OverviewValues>();
  const description = Form.useWatch('description', form) as string | undefined;
  const { state, label, handleValuesChange, handleFinish } = useOverviewAutosave({ form, record, english, readOnly, session });

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
    <Form.Item name={name} label={t(label)} required={REQUIRED_FIELDS.has(name)}>
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
    <Form.Item name={name} label={t(label)} required={REQUIRED_FIELDS.has(name)}>
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
