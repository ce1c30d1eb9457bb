import { Alert, Button, Descriptions, Flex, Space, Spin, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { loadChunk } from '../../../app/lazy';
import { formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import { datasetTitle, landingPath } from '../../orders/components/common';
import { analysisApi, analysisKeys, methodName, runCsvUrl, type AnalysisRun } from '../api';
import { LoadFailed, RunStatusTag } from './common';

// ECharts comes with this chunk only, once a result with a chart is shown.
const ResultChart = lazy(() => loadChunk(() => import('./ResultChart')));

/** How often a run still queued or running is asked again. */
const POLL_MS = 1000;

/** A cell as text: empty for null, nested values (lists, structs) as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

type ResultRow = Record<string, unknown> & { key: number };

/**
 * One run: its inputs (the version it ran, its datasets and parameter values), its progress while
 * it waits or runs, then its error, or its result as a table (scrolled inside its box), the
 * method's chart and a CSV download; `onRerun` runs the same inputs again (none for a run whose method is gone).
 */
export function RunResult({ runId, onRerun }: { runId: string; onRerun?: (runId: string) => void }) {
  const { t } = useFeedback();
  const isPhone = useIsPhone();
  const run = useQuery({
    queryKey: analysisKeys.run(runId),
    queryFn: () => analysisApi.run(runId),
    refetchInterval: (query) => (query.state.data && (query.state.data.status === 'queued' || query.state.data.status === 'running') ? POLL_MS : false),
  });
  const data = run.data;
  // A run seen ending here changes the list of runs and the method's uses. A run opened when it had
  // long ended changes nothing (and a kept run of a deleted method would otherwise ask for the method
  // again and again: each answer, a 404, showed this result anew).
  const queryClient = useQueryClient();
  const [seenWorking, setSeenWorking] = useState<string | null>(null);
  if (data && (data.status === 'queued' || data.status === 'running') && seenWorking !== data.id) setSeenWorking(data.id);
  const endedHere = (data?.status === 'done' || data?.status === 'failed') && seenWorking === data.id;
  useEffect(() => {
    if (endedHere) void queryClient.invalidateQueries({ queryKey: analysisKeys.all, predicate: (query) => query.queryKey[1] !== 'run' });
  }, [endedHere, queryClient]);
  if (run.isError) return <LoadFailed onRetry={() => void run.refetch()} />;
  if (!data) return <Spin />;
  const isWorking = data.status === 'queued' || data.status === 'running';

  return (
    <section aria-labelledby="run-result" data-testid="run-result">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Title level={2} id="run-result" style={{ fontSize: 18, margin: 0 }}>
          {t('analysisUi.run.resultTitle', { date: formatDateTime(data.created_at) })}
        </Typography.Title>
        <Space wrap>
          <RunStatusTag status={data.status} />
          {!isWorking && onRerun && <Button onClick={() => onRerun(data.id)}>{t('analysisUi.run.rerun')}</Button>}
          {data.status === 'done' && (
            <Button type="primary" href={runCsvUrl(data.id)} download>
              {t('analysisUi.run.downloadCsv')}
            </Button>
          )}
        </Space>
      </Flex>
      <RunInputs run={data} isPhone={isPhone} />
      {isWorking && (
        <Flex align="center" gap={12} role="status" style={{ margin: '16px 0' }}>
          <Spin />
          <Typography.Text>{t(data.status === 'queued' ? 'analysisUi.run.queued' : 'analysisUi.run.running')}</Typography.Text>
        </Flex>
      )}
      {data.status === 'failed' && <Alert type="error" showIcon style={{ marginTop: 16 }} title={t('analysisUi.run.failed')} description={data.error} />}
      {data.status === 'done' && <ResultBody run={data} isPhone={isPhone} />}
    </section>
  );
}

/** What a run was given, so that its result can be cited and run again. */
function RunInputs({ run, isPhone }: { run: AnalysisRun; isPhone: boolean }) {
  const { t } = useFeedback();
  const parameters = Object.entries(run.parameters);
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      layout={isPhone ? 'vertical' : 'horizontal'}
      items={[
        { key: 'method', label: t('analysisUi.run.method'), children: `${methodName(run.method)} · ${t('analysisUi.common.versionShort', { version: run.method.version })}` },
        {
          key: 'datasets',
          label: t('analysisUi.run.datasets'),
          children: (
            <Space orientation="vertical" size={2}>
              {run.dataset_titles.map((dataset) => (
                <a key={dataset.id} href={landingPath(dataset.id)}>
                  {datasetTitle(dataset) || dataset.id}
                </a>
              ))}
            </Space>
          ),
        },
        {
          key: 'parameters',
          label: t('analysisUi.run.parameters'),
          children: parameters.length ? parameters.map(([name, value]) => `${name} = ${String(value)}`).join('; ') : t('analysisUi.detail.noParameters'),
        },
        { key: 'views', label: t('analysisUi.run.views'), children: run.views.map((view) => `${view.name} ← ${view.file}`).join('; ') },
        { key: 'id', label: t('analysisUi.run.id'), children: <Typography.Text copyable>{run.id}</Typography.Text> },
      ]}
    />
  );
}

/** A finished run's rows, and its chart when the method describes one. */
function ResultBody({ run, isPhone }: { run: AnalysisRun; isPhone: boolean }) {
  const { t } = useFeedback();
  const columns = useMemo(() => run.columns ?? [], [run.columns]);
  const rows = useMemo(() => run.rows ?? [], [run.rows]);
  const dataSource = useMemo<ResultRow[]>(() => rows.map((row, index) => ({ key: index, ...Object.fromEntries(row.map((value, column) => [`c${column}`, value])) })), [rows]);
  const chart = useMemo(() => chartData(run, columns, rows), [run, columns, rows]);

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%', marginTop: 16 }}>
      <Typography.Text type="secondary">{t('analysisUi.run.rowCount', { count: rows.length })}</Typography.Text>
      {run.chart &&
        (chart ? (
          <Suspense fallback={<Typography.Text type="secondary">{t('analysisUi.run.chartLoading')}</Typography.Text>}>
            <ResultChart
              chart={run.chart}
              {...chart}
              isPhone={isPhone}
              label={t('analysisUi.run.chartLabel', { type: t(`analysisUi.chartTypes.${run.chart.type}`), x: run.chart.x, y: run.chart.y.join(', ') })}
            />
          </Suspense>
        ) : (
          <Alert type="warning" showIcon title={t('analysisUi.run.chartColumnsMissing', { columns: [run.chart.x, ...run.chart.y].join(', ') })} />
        ))}
      <Table<ResultRow>
        size="small"
        bordered
        columns={columns.map((column, index) => ({ title: column.name, dataIndex: `c${index}`, render: (value: unknown) => cellText(value) }))}
        dataSource={dataSource}
        scroll={{ x: 'max-content' }}
        pagination={{ defaultPageSize: 50, hideOnSinglePage: true, showSizeChanger: true }}
        locale={{ emptyText: t('analysisUi.run.noRows') }}
      />
    </Space>
  );
}

/** The chart's columns out of the result, or null when the result lacks one of them. */
function chartData(run: AnalysisRun, columns: NonNullable<AnalysisRun['columns']>, rows: unknown[][]) {
  if (!run.chart) return null;
  const indexOf = (name: string) => columns.findIndex((column) => column.name === name);
  const xIndex = indexOf(run.chart.x);
  const yIndexes = run.chart.y.map(indexOf);
  if (xIndex < 0 || yIndexes.some((index) => index < 0)) return null;
  const x = rows.map((row) => (typeof row[xIndex] === 'number' ? row[xIndex] : cellText(row[xIndex])));
  const series = run.chart.y.map((name, position) => ({
    name,
    values: rows.map((row) => {
      const value = row[yIndexes[position]!];
      return typeof value === 'number' ? value : value === null || value === undefined || value === '' ? null : Number(value);
    }),
  }));
  return { x, series, isNumericX: rows.every((row) => typeof row[xIndex] === 'number') };
}
