import { Button, Collapse, Drawer, Flex, Form, Input, Select, Space, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CHART_TYPES, METHOD_LIMITS, PARAMETER_NAME, PARAMETER_TYPES, type ParameterType } from '@portal/shared';
import { formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import { analysisApi, analysisKeys, methodName, type AnalysisMethod, type MethodInput } from '../api';
import { SqlText } from './MethodDetail';

/** The form's values: a parameter's default as typed, the chart as three fields. */
interface FormValues {
  name: string;
  name_en: string;
  description: string;
  description_en: string;
  sql: string;
  parameters: { name: string; type: ParameterType; default?: string }[];
  chartType: 'none' | (typeof CHART_TYPES)[number];
  chartX?: string;
  chartY?: string[];
  public: boolean;
}

const valuesOf = (method: AnalysisMethod | undefined): FormValues => ({
  name: method?.name ?? '',
  name_en: method?.name_en ?? '',
  description: method?.description ?? '',
  description_en: method?.description_en ?? '',
  sql: method?.sql ?? '',
  parameters: (method?.parameters ?? []).map((parameter) => ({ ...parameter, default: parameter.default === null ? '' : String(parameter.default) })),
  chartType: method?.chart?.type ?? 'none',
  chartX: method?.chart?.x,
  chartY: method?.chart?.y,
  public: method?.public ?? false,
});

/** What the server takes: a default left empty is none; the server checks each against its type. */
const inputOf = (values: FormValues): MethodInput => ({
  name: values.name,
  name_en: values.name_en ?? '',
  description: values.description ?? '',
  description_en: values.description_en ?? '',
  sql: values.sql,
  parameters: (values.parameters ?? []).map((parameter) => ({ name: parameter.name, type: parameter.type, default: parameter.default?.trim() ? parameter.default.trim() : null })),
  chart: values.chartType === 'none' ? null : { type: values.chartType, x: values.chartX ?? '', y: values.chartY ?? [] },
  public: values.public,
});

/**
 * A method's form in a drawer: a new method, or an edit of one of the caller's (each edit a new
 * version, the earlier ones listed below). The server's refusals are shown in the page's language.
 */
export function MethodEditor({ method, onClose, onSaved }: { method?: AnalysisMethod; onClose: () => void; onSaved: (method: AnalysisMethod) => void }) {
  const { run, message, t } = useFeedback();
  const isPhone = useIsPhone();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const chartType = Form.useWatch('chartType', form);

  const save = async (values: FormValues) => {
    setSaving(true);
    const saved = await run(() => (method ? analysisApi.update(method.id, inputOf(values)) : analysisApi.create(inputOf(values))), form);
    setSaving(false);
    if (!saved) return;
    message.success(method ? t('analysisUi.form.saved', { version: saved.version }) : t('analysisUi.form.created'));
    await queryClient.invalidateQueries({ queryKey: analysisKeys.all });
    onSaved(saved);
  };

  const required = (text: string) => [{ required: true, whitespace: true, message: text }];
  const counted = (max: number) => ({ count: { max, show: ({ count }: { count: number }) => (count >= max * 0.8 ? `${count} / ${max}` : null) } });
  return (
    <Drawer
      open
      onClose={onClose}
      title={method ? t('analysisUi.form.editTitle', { name: methodName(method) }) : t('analysisUi.form.createTitle')}
      size={isPhone ? '100%' : 760}
      destroyOnHidden
      maskClosable={false}
      styles={isPhone ? { body: { padding: 12 } } : undefined}
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('analysisUi.common.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()}>
            {t('analysisUi.common.save')}
          </Button>
        </Flex>
      }
    >
      <Form<FormValues> form={form} layout="vertical" initialValues={valuesOf(method)} onFinish={save} scrollToFirstError>
        {method && (
          <Typography.Paragraph type="secondary">{t('analysisUi.form.currentVersion', { version: method.version, date: formatDateTime(method.updated_at) })}</Typography.Paragraph>
        )}
        <Form.Item name="name" label={t('analysisUi.form.name')} rules={required(t('analysis.nameRequired'))}>
          <Input {...counted(METHOD_LIMITS.name)} />
        </Form.Item>
        <Form.Item name="name_en" label={t('analysisUi.form.nameEn')}>
          <Input {...counted(METHOD_LIMITS.name)} />
        </Form.Item>
        <Form.Item name="description" label={t('analysisUi.form.description')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} {...counted(METHOD_LIMITS.description)} />
        </Form.Item>
        <Form.Item name="description_en" label={t('analysisUi.form.descriptionEn')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} {...counted(METHOD_LIMITS.description)} />
        </Form.Item>
        <Form.Item name="sql" label={t('analysisUi.form.sql')} extra={t('analysisUi.form.sqlHelp')} rules={required(t('analysis.sqlRequired'))}>
          <Input.TextArea autoSize={{ minRows: 6, maxRows: 20 }} spellCheck={false} style={{ fontFamily: 'monospace' }} {...counted(METHOD_LIMITS.sql)} />
        </Form.Item>
        <ParameterList />
        <Form.Item name="chartType" label={t('analysisUi.form.chart')}>
          <Select
            options={[{ value: 'none', label: t('analysisUi.form.chartNone') }, ...CHART_TYPES.map((type) => ({ value: type, label: t(`analysisUi.chartTypes.${type}`) }))]}
          />
        </Form.Item>
        {chartType && chartType !== 'none' && (
          <Flex gap={12} wrap>
            <Form.Item name="chartX" label={t('analysisUi.form.chartX')} rules={required(t('analysisUi.form.columnRequired'))} style={{ flex: '1 1 200px' }}>
              <Input />
            </Form.Item>
            <Form.Item name="chartY" label={t('analysisUi.form.chartY')} rules={[{ required: true, message: t('analysisUi.form.columnRequired') }]} style={{ flex: '2 1 260px' }}>
              <Select mode="tags" maxCount={10} tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
            </Form.Item>
          </Flex>
        )}
        <Form.Item name="public" label={t('analysisUi.form.public')} valuePropName="checked" extra={t('analysisUi.form.publicHelp')}>
          <Switch />
        </Form.Item>
      </Form>
      {method && <VersionList method={method} />}
    </Drawer>
  );
}

/** The parameters the SQL writes as `$name`: a name, a type, a default. */
function ParameterList() {
  const { t } = useFeedback();
  return (
    <Form.List name="parameters">
      {(fields, { add, remove }) => (
        <fieldset style={{ border: 0, padding: 0, margin: '0 0 16px' }}>
          <legend style={{ fontSize: 14, marginBottom: 8 }}>{t('analysisUi.form.parameters')}</legend>
          <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
            {t('analysisUi.form.parametersHelp')}
          </Typography.Paragraph>
          {fields.map((field, index) => (
            <Flex key={field.key} gap={8} wrap align="start" role="group" aria-label={t('analysisUi.form.parameterN', { n: index + 1 })}>
              <Form.Item
                name={[field.name, 'name']}
                label={t('analysisUi.form.parameterName')}
                style={{ flex: '1 1 140px' }}
                rules={[
                  { required: true, message: t('analysisUi.form.parameterNameRequired') },
                  { pattern: PARAMETER_NAME, message: t('analysisUi.form.parameterNameRule') },
                  ({ getFieldValue }) => ({
                    validator: async (_rule, value: string) => {
                      const names = (getFieldValue('parameters') as FormValues['parameters']).map((parameter) => parameter?.name);
                      if (value && names.filter((name) => name === value).length > 1) throw new Error(t('analysis.parameterTwice', { name: value }));
                    },
                  }),
                ]}
              >
                <Input maxLength={METHOD_LIMITS.parameterName} spellCheck={false} />
              </Form.Item>
              <Form.Item name={[field.name, 'type']} label={t('analysisUi.form.parameterType')} style={{ flex: '1 1 120px' }}>
                <Select options={PARAMETER_TYPES.map((type) => ({ value: type, label: t(`analysisUi.parameterTypes.${type}`) }))} />
              </Form.Item>
              <Form.Item name={[field.name, 'default']} label={t('analysisUi.form.parameterDefault')} style={{ flex: '1 1 140px' }}>
                <Input />
              </Form.Item>
              <Form.Item label=" " colon={false}>
                <Button danger onClick={() => remove(field.name)} aria-label={t('analysisUi.form.removeParameterN', { n: index + 1 })}>
                  {t('analysisUi.form.removeParameter')}
                </Button>
              </Form.Item>
            </Flex>
          ))}
          {fields.length < METHOD_LIMITS.parameters && (
            <Button type="dashed" onClick={() => add({ name: '', type: 'number', default: '' })}>
              {t('analysisUi.form.addParameter')}
            </Button>
          )}
        </fieldset>
      )}
    </Form.List>
  );
}

/** Every version of the method's text, the newest first: runs name the version they ran. */
function VersionList({ method }: { method: AnalysisMethod }) {
  const { t } = useFeedback();
  const versions = useQuery({ queryKey: analysisKeys.versions(method.id), queryFn: () => analysisApi.versions(method.id) });
  const items = (versions.data?.results ?? []).map((version) => ({
    key: String(version.version),
    label: t('analysisUi.form.versionAt', { version: version.version, date: formatDateTime(version.created_at) }),
    children: (
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text strong>{methodName(version)}</Typography.Text>
        <SqlText sql={version.sql} />
      </Space>
    ),
  }));
  return (
    <section aria-labelledby="method-versions" style={{ marginTop: 8 }}>
      <Typography.Title level={3} id="method-versions" style={{ fontSize: 16 }}>
        {t('analysisUi.form.versions')}
      </Typography.Title>
      {versions.isLoading ? <Typography.Text type="secondary">{t('analysisUi.common.loading')}</Typography.Text> : <Collapse size="small" items={items} />}
    </section>
  );
}
