import { Alert, Button, Card, Collapse, Flex, Result, Space, Spin, Table, Typography, type TableColumnsType, type TableProps } from 'antd';
import { AreaChartOutlined, DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, TABLE_DOWNLOAD_MAX_ROWS } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { ApiError } from '../../../api/client';
import { refusal } from '../../../api/form';
import { formatCount } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { datasetTitle, landingPath, PageTitle } from '../../orders/components/common';
import { columnTitle, isNumberColumn, tableDownloadUrl, tablesApi, tablesKeys, useTableRows, type TableColumn, type TableDescription, type TableFilters } from '../api';
import { ChartPanel } from '../components/ChartPanel';
import { FilterPanel } from '../components/FilterPanel';

/** A row of the page, keyed by its place in the whole result (`__key` can be no field: fields begin with a letter). */
type Row = Record<string, string | number | null> & { __key: number };

/** A value as the reader reads it: a time with a space for the T, nothing for an empty cell. */
function cellText(value: string | number | null | undefined, column: TableColumn): string {
  if (value === null || value === undefined) return '';
  if (column.type === 'datetime' && typeof value === 'string') return value.replace('T', ' ');
  return String(value);
}

/**
 * /data/detailedDataDetail/:id/:code: one table of record `id`, for whoever may download the
 * record's files: its columns with display names and units in the page's language, paged, sorted
 * by a column, filtered per column by its type, a chart of one column against another, and the
 * filtered rows as CSV or Excel. A table the reader may not see is a page that says why.
 */
export default function TableViewerPage() {
  const { id = '', code = '' } = useParams();
  const { t } = useTranslation();
  const described = useQuery({
    queryKey: tablesKeys.one(code),
    queryFn: () => tablesApi.describe(code),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

  if (described.isPending) return <Spin size="large" style={{ display: 'block', margin: '64px auto' }} />;
  if (described.isError || described.data.record.id !== id) {
    const error = described.error;
    const status = error instanceof ApiError ? error.status : described.isError ? 500 : 404;
    const title = status === 403 ? t('tablesUi.viewer.forbidden') : status === 404 || status === 401 ? t('tablesUi.viewer.notFound') : t('tablesUi.loadFailed');
    return (
      <Result
        status={status === 403 ? '403' : status === 404 || status === 401 ? '404' : 'error'}
        title={title}
        subTitle={error ? refusal(error, '') : undefined}
        extra={
          <Space wrap>
            <Link to="/data/detailedData">{t('tablesUi.viewer.backToList')}</Link>
            {status === 403 && <a href={landingPath(id)}>{t('tablesUi.viewer.openRecord')}</a>}
            {status >= 500 && <Button onClick={() => void described.refetch()}>{t('tablesUi.retry')}</Button>}
          </Space>
        }
      />
    );
  }
  return <Viewer table={described.data} />;
}

function Viewer({ table }: { table: TableDescription }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [ordering, setOrdering] = useState<string | undefined>(undefined);
  const [filters, setFilters] = useState<TableFilters>({});
  const [charting, setCharting] = useState(false);
  const rows = useTableRows(table.code, { page, pageSize, ordering, filters });
  const count = rows.data?.count ?? 0;
  const filtered = Object.values(filters).some((operators) => Object.values(operators).some((value) => value?.trim()));

  const sortOrder = (field: string) => (ordering === field ? 'ascend' : ordering === `-${field}` ? 'descend' : null);
  const columns: TableColumnsType<Row> = table.columns.map((column) => ({
    key: column.field,
    dataIndex: column.field,
    title: (
      <span title={column.note || undefined}>
        {columnTitle(column, pageLanguage)}
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, fontWeight: 'normal' }}>
          {column.field}
        </Typography.Text>
      </span>
    ),
    sorter: column.type !== 'text',
    sortOrder: sortOrder(column.field),
    align: isNumberColumn(column) ? 'end' : 'start',
    ellipsis: column.type === 'text',
    width: column.type === 'text' ? 320 : undefined,
    render: (value: string | number | null) => cellText(value, column),
  }));

  const onTable: TableProps<Row>['onChange'] = (pagination, _filters, sorter) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const next = one?.order ? `${one.order === 'descend' ? '-' : ''}${String(one.columnKey)}` : undefined;
    if (next !== ordering) {
      setOrdering(next);
      setPage(1);
    } else {
      setPage(pagination.current ?? 1);
      setPageSize(pagination.pageSize ?? DEFAULT_PAGE_SIZE);
    }
  };

  const tooMany = count > TABLE_DOWNLOAD_MAX_ROWS;
  const download = (format: 'csv' | 'xlsx', label: string) => (
    <Button icon={<DownloadOutlined />} href={tooMany ? undefined : tableDownloadUrl(table.code, { ordering, filters }, format, pageLanguage)} disabled={tooMany || !rows.data}>
      {label}
    </Button>
  );

  return (
    <Card title={<PageTitle>{table.name}</PageTitle>}>
      <Flex vertical gap={16}>
        <Typography.Paragraph style={{ margin: 0 }}>
          {t('tablesUi.viewer.ofRecord')} <a href={landingPath(table.record.id)}>{datasetTitle(table.record)}</a>
          <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
            {t('tablesUi.viewer.size', { rows: formatCount(table.rows), columns: formatCount(table.columns.length) })}
          </Typography.Text>
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('tablesUi.viewer.sqlName')}{' '}
          <Typography.Text code copyable>
            {table.code}
          </Typography.Text>
        </Typography.Paragraph>
        <Collapse
          defaultActiveKey={isPhone ? [] : ['filters']}
          items={[
            {
              key: 'filters',
              label: t('tablesUi.filters.title'),
              children: (
                <FilterPanel
                  columns={table.columns}
                  applied={filters}
                  onApply={(next) => {
                    setFilters(next);
                    setPage(1);
                  }}
                />
              ),
            },
          ]}
        />
        <Flex gap={8} wrap align="center" justify="space-between">
          <Typography.Text data-testid="match-count" aria-live="polite">
            {t(filtered ? 'tablesUi.viewer.matching' : 'tablesUi.viewer.allRows', { count, countText: formatCount(count) })}
          </Typography.Text>
          <Space wrap>
            <Button icon={<AreaChartOutlined />} aria-expanded={charting} onClick={() => setCharting(!charting)}>
              {charting ? t('tablesUi.chart.close') : t('tablesUi.chart.open')}
            </Button>
            {download('csv', t('tablesUi.viewer.downloadCsv'))}
            {download('xlsx', t('tablesUi.viewer.downloadXlsx'))}
          </Space>
        </Flex>
        {tooMany && <Alert type="warning" showIcon title={t('tablesUi.viewer.tooManyRows', { max: formatCount(TABLE_DOWNLOAD_MAX_ROWS) })} />}
        {charting && (
          <Card size="small" title={t('tablesUi.chart.title')}>
            <ChartPanel code={table.code} columns={table.columns} filters={filters} />
          </Card>
        )}
        {rows.error && <Alert type="error" showIcon role="alert" title={refusal(rows.error, t('tablesUi.loadFailed'))} />}
        <Table<Row>
          rowKey="__key"
          size="small"
          bordered
          scroll={{ x: 'max-content' }}
          loading={rows.isFetching}
          columns={columns}
          dataSource={(rows.data?.results ?? []).map((row, index) => ({ ...row, __key: (page - 1) * pageSize + index }))}
          onChange={onTable}
          locale={{ emptyText: filtered ? t('tablesUi.viewer.noMatch') : t('tablesUi.viewer.empty') }}
          pagination={{ current: page, pageSize, total: count, showSizeChanger: true, simple: isPhone }}
        />
      </Flex>
    </Card>
  );
}
