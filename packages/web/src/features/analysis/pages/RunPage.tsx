import { Alert, Button, Card, Divider, Flex, Form, Input, Result, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { METHOD_LIMITS, type MethodParameter } from '@portal/shared';
import { ApiError } from '../../../api/client';
import { useFeedback } from '../../metadata/components/useFeedback';
import { PageTitle } from '../../orders/components/common';
import { analysisApi, analysisKeys, methodDescription, methodName, type AnalysisMethod, type RunDataset, type RunSummary } from '../api';
import { LoadFailed } from '../components/common';
import { DatasetPicker } from '../components/DatasetPicker';
import { AuthorName } from '../components/MethodDetail';
import { RunHistory } from '../components/RunHistory';
import { RunResult } from '../components/RunResult';

interface RunForm {
  datasets: string[];
  parameters: Record<string, string | undefined>;
}

/** A value as the form shows it (the server takes the text and checks it against the parameter's type). */
const shown = (value: MethodParameter['default'] | undefined) => (value === null || value === undefined ? undefined : String(value));

/**
 * /analyze/run/:id: a method run on chosen datasets with parameter values (`?datasets=a,b` chooses
 * some first: the data cart's analysis sends them), its progress and result (`?run=`: the run shown),
 * and the caller's earlier runs of it, each opened again or run again.
 */
export default function RunPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const keptRun = params.get('run');
  const { t } = useFeedback();
  const method = useQuery({
    queryKey: analysisKeys.method(id),
    queryFn: () => analysisApi.method(id),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  const heading = <PageTitle>{t('analysisUi.run.title')}</PageTitle>;
  if (method.error) {
    const status = method.error instanceof ApiError ? method.error.status : 0;
    return (
      <Card title={heading}>
        {status === 404 && keptRun ? (
          // A cited run outlives its method: its result is shown as it was kept, without a rerun.
          <Flex vertical gap={16}>
            <Alert type="info" showIcon title={t('analysisUi.run.methodGone')} />
            <RunResult runId={keptRun} />
          </Flex>
        ) : status === 404 ? (
          <Result status="404" title={t('analysisUi.run.notFound')} extra={<Link to="/analyze/exploredways">{t('analysisUi.explore.title')}</Link>} />
        ) : (
          <LoadFailed onRetry={() => void method.refetch()} />
        )}
      </Card>
    );
  }
  return (
    <Card title={heading} loading={!method.data}>
      {method.data && <RunPanel key={method.data.id} method={method.data} />}
    </Card>
  );
}

function RunPanel({ method }: { method: AnalysisMethod }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const runId = params.get('run');
  const [form] = Form.useForm<RunForm>();
  const [starting, setStarting] = useState(false);
  // Titles of datasets chosen by reopening a run, which the picker's lists may not hold.
  const [known, setKnown] = useState<RunDataset[]>([]);
  const description = methodDescription(method);

  // A run opened by its address (a cited result): its inputs fill the form once, to run again or change.
  const isLinked = useRef(!!runId && !params.get('datasets'));
  const linked = useQuery({ queryKey: analysisKeys.run(runId ?? ''), queryFn: () => analysisApi.run(runId!), enabled: isLinked.current });
  useEffect(() => {
    if (!isLinked.current || !linked.data) return;
    isLinked.current = false;
    fill({ datasets: linked.data.dataset_titles, parameters: linked.data.parameters });
  });

  const initial: RunForm = {
    datasets: (params.get('datasets') ?? '').split(',').filter(Boolean).slice(0, METHOD_LIMITS.datasets),
    parameters: Object.fromEntries(method.parameters.map((parameter) => [parameter.name, shown(parameter.default)])),
  };

  const show = async (started: { id: string } | undefined) => {
    if (!started) return;
    setParams({ run: started.id });
    await queryClient.invalidateQueries({ queryKey: analysisKeys.all, predicate: (query) => query.queryKey[1] !== 'run' });
  };

  const start = async (values: RunForm) => {
    setStarting(true);
    const parameters = Object.fromEntries(Object.entries(values.parameters ?? {}).filter((entry): entry is [string, string] => !!entry[1]?.trim()));
    const started = await run(() => analysisApi.start(method.id, { datasets: values.datasets, parameters }));
    setStarting(false);
    if (started) message.success(t('analysisUi.run.started'));
    await show(started);
  };

  const rerun = async (earlier: string) => {
    const started = await run(() => analysisApi.rerun(earlier));
    if (started) message.success(t('analysisUi.run.started'));
    await show(started);
  };

  function fill(earlier: { datasets: RunDataset[]; parameters: RunSummary['parameters'] }) {
    setKnown(earlier.datasets);
    form.setFieldsValue({
      datasets: earlier.datasets.map((dataset) => dataset.id),
      parameters: Object.fromEntries(Object.entries(earlier.parameters).map(([name, value]) => [name, shown(value)])),
    });
  }

  // An earlier run opened: its result shown, its inputs in the form, to change and run again.
  const open = (earlier: RunSummary) => {
    fill(earlier);
    setParams({ run: earlier.id });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <div>
        <Flex justify="space-between" align="baseline" wrap gap={8}>
          <Typography.Title level={2} style={{ fontSize: 20, margin: 0 }}>
            {methodName(method)}
          </Typography.Title>
          {method.is_mine && <Link to="/analyze">{t('analysisUi.my.title')}</Link>}
        </Flex>
        <Typography.Text type="secondary">
          <AuthorName method={method} /> · {t('analysisUi.common.versionShort', { version: method.version })} · {t('analysisUi.common.usesCount', { count: method.uses })}
        </Typography.Text>
        {description && <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginTop: 8, marginBottom: 0 }}>{description}</Typography.Paragraph>}
      </div>
      <Form<RunForm> form={form} layout="vertical" initialValues={initial} onFinish={start} style={{ maxWidth: 760 }}>
        <Form.Item
          name="datasets"
          label={t('analysisUi.run.datasets')}
          extra={t('analysisUi.run.datasetsHelp', { max: METHOD_LIMITS.datasets })}
          rules={[{ required: true, type: 'array', min: 1, message: t('analysis.datasetsRequired') }]}
        >
          <DatasetPicker known={known} />
        </Form.Item>
        {method.parameters.length > 0 && (
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <legend style={{ fontSize: 14, marginBottom: 8 }}>{t('analysisUi.run.parameters')}</legend>
            <Flex gap={12} wrap>
              {method.parameters.map((parameter) => (
                <Form.Item
                  key={parameter.name}
                  name={['parameters', parameter.name]}
                  label={`${parameter.name} (${t(`analysisUi.parameterTypes.${parameter.type}`)})`}
                  rules={[{ required: true, whitespace: true, message: t('analysis.parameterMissing', { name: parameter.name }) }]}
                  style={{ flex: '1 1 200px' }}
                >
                  <ParameterInput parameter={parameter} />
                </Form.Item>
              ))}
            </Flex>
          </fieldset>
        )}
        <Button type="primary" htmlType="submit" loading={starting}>
          {t('analysisUi.run.start')}
        </Button>
      </Form>
      {runId && (
        <>
          <Divider style={{ margin: 0 }} />
          <RunResult runId={runId} onRerun={(earlier) => void rerun(earlier)} />
        </>
      )}
      <Divider style={{ margin: 0 }} />
      <RunHistory methodId={method.id} current={runId} onOpen={open} onRerun={(earlier) => void rerun(earlier)} />
    </Space>
  );
}

/** A parameter's field by its type: true / false to choose, a date picker, else text (numbers with a numeric keyboard on a phone). */
function ParameterInput({ parameter, ...field }: { parameter: MethodParameter; value?: string; onChange?: (value: string) => void; id?: string }) {
  const { t } = useFeedback();
  if (parameter.type === 'boolean')
    return (
      <Select
        {...field}
        options={[
          { value: 'true', label: t('analysisUi.run.true') },
          { value: 'false', label: t('analysisUi.run.false') },
        ]}
      />
    );
  const onChange = (event: { target: { value: string } }) => field.onChange?.(event.target.value);
  if (parameter.type === 'date') return <Input {...field} onChange={onChange} type="date" />;
  const isNumber = parameter.type === 'number' || parameter.type === 'integer';
  return <Input {...field} onChange={onChange} inputMode={isNumber ? (parameter.type === 'integer' ? 'numeric' : 'decimal') : undefined} maxLength={1000} />;
}
