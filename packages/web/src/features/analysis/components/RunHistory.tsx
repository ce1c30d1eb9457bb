import { Button, Space, Table, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../../../components/format';
import { tablePagination } from '../../../components/table-pagination';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import { datasetTitle } from '../../orders/components/common';
import { analysisApi, analysisKeys, type RunQuery, type RunSummary } from '../api';
import { LoadFailed, RunStatusTag } from './common';

/** A run's parameter values in one line. */
const parameterText = (run: RunSummary) =>
  Object.entries(run.parameters)
    .map(([name, value]) => `${name} = ${String(value)}`)
    .join('; ');

/** The caller's earlier runs of a method, newest first, each with its inputs, to open again (its result) or to run again. */
export function RunHistory({
  methodId,
  current,
  onOpen,
  onRerun,
}: {
  methodId: string;
  current: string | null;
  onOpen: (run: RunSummary) => void;
  onRerun: (runId: string) => void;
}) {
  const { t } = useFeedback();
  const isPhone = useIsPhone();
  // Touch-sized on a phone.
  const buttonSize = isPhone ? 'middle' : 'small';
  const [query, setQuery] = useState<RunQuery>({ page: 1, pageSize: 10, method: methodId });
  const runs = useQuery({ queryKey: analysisKeys.runs(query), queryFn: () => analysisApi.runs(query), placeholderData: keepPreviousData });

  const datasets = (run: RunSummary) => run.datasets.map((dataset) => datasetTitle(dataset) || dataset.id).join('; ');
  const actions = (run: RunSummary) => (
    <Space size={4} wrap>
      <Button size={buttonSize} disabled={run.id === current} onClick={() => onOpen(run)} aria-label={t('analysisUi.run.openRun', { date: formatDateTime(run.created_at) })}>
        {t('analysisUi.common.open')}
      </Button>
      <Button size={buttonSize} onClick={() => onRerun(run.id)} aria-label={t('analysisUi.run.rerunRun', { date: formatDateTime(run.created_at) })}>
        {t('analysisUi.run.rerun')}
      </Button>
    </Space>
  );
  const columns: TableColumnsType<RunSummary> = [
    {
      title: t('analysisUi.run.startedAt'),
      dataIndex: 'created_at',
      width: isPhone ? undefined : 190,
      render: (value: string, run) => (
        <Space orientation="vertical" size={2}>
          <span>{formatDateTime(value)}</span>
          <span>
            <RunStatusTag status={run.status} /> {t('analysisUi.common.versionShort', { version: run.method.version })}
          </span>
          {isPhone && (
            <>
              <Typography.Text type="secondary">{datasets(run)}</Typography.Text>
              {parameterText(run) && <Typography.Text type="secondary">{parameterText(run)}</Typography.Text>}
              {actions(run)}
            </>
          )}
        </Space>
      ),
    },
    { title: t('analysisUi.run.datasets'), key: 'datasets', responsive: ['md'], render: (_, run) => datasets(run) },
    { title: t('analysisUi.run.parameters'), key: 'parameters', responsive: ['lg'], render: (_, run) => parameterText(run) },
    { title: t('analysisUi.common.actions'), key: 'actions', width: 170, responsive: ['md'], render: (_, run) => actions(run) },
  ];

  return (
    <section aria-labelledby="run-history">
      <Typography.Title level={2} id="run-history" style={{ fontSize: 18 }}>
        {t('analysisUi.run.history')}
      </Typography.Title>
      {runs.isError ? (
        <LoadFailed onRetry={() => void runs.refetch()} />
      ) : (
        <Table<RunSummary>
          rowKey="id"
          size="small"
          loading={runs.isLoading}
          columns={columns}
          dataSource={runs.data?.results ?? []}
          locale={{ emptyText: t('analysisUi.run.noHistory') }}
          pagination={{ ...tablePagination(runs.data?.count, query, setQuery), hideOnSinglePage: true }}
        />
      )}
    </section>
  );
}
