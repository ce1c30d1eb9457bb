import { Alert, Flex, Form, Segmented, Select, Spin, Typography } from 'antd';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_PAGE_SIZE } from '@portal/shared';
import { lazyPage } from '../../../app/lazy';
import { pageLanguage } from '../../../app/i18n';
import { refusal } from '../../../api/form';
import { formatCount } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { columnTitle, isNumberColumn, useTableRows, type TableColumn, type TableFilters } from '../api';

const TableChart = lazyPage(() => import('./TableChart'));

/** Rows a chart draws: one page of the largest size, the rows that match the filters in the x column's order. */
const CHART_ROWS = MAX_PAGE_SIZE;

const axisOf = (column: TableColumn): 'value' | 'time' | 'category' =>
  isNumberColumn(column) ? 'value' : column.type === 'date' || column.type === 'datetime' ? 'time' : 'category';

/**
 * A chart of one column against another (a number column on the y axis), of the rows matching the
 * viewer's filters: its first CHART_ROWS rows in the x column's order. Mounted only when the
 * reader opens it, so ECharts (TableChart's chunk) is loaded then and not before.
 */
export function ChartPanel({ code, columns, filters }: { code: string; columns: TableColumn[]; filters: TableFilters }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const numbers = columns.filter(isNumberColumn);
  const axes = columns.filter((column) => column.type !== 'text');
  // A series over time when the table has a date, else one number against another.
  const [x, setX] = useState(() => (axes.find((column) => column.type === 'date' || column.type === 'datetime') ?? numbers[0] ?? axes[0])?.field);
  const [y, setY] = useState(() => numbers.find((column) => column.field !== x)?.field ?? numbers[0]?.field);
  const [kind, setKind] = useState<'scatter' | 'line'>('scatter');
  const xColumn = axes.find((column) => column.field === x);
  const yColumn = numbers.find((column) => column.field === y);
  const rows = useTableRows(code, { page: 1, pageSize: CHART_ROWS, ordering: x, filters }, !!xColumn && !!yColumn);
  const points = useMemo(() => {
    if (!xColumn || !yColumn) return [];
    return (rows.data?.results ?? []).flatMap((row) => {
      const [xValue, yValue] = [row[xColumn.field], row[yColumn.field]];
      return xValue === null || xValue === undefined || typeof yValue !== 'number' ? [] : [[xValue, yValue] as [string | number, number]];
    });
  }, [rows.data, xColumn, yColumn]);

  if (numbers.length === 0) return <Alert type="info" showIcon title={t('tablesUi.chart.noNumbers')} />;
  const option = (column: TableColumn) => ({ value: column.field, label: columnTitle(column, pageLanguage) });
  const xName = xColumn ? columnTitle(xColumn, pageLanguage) : '';
  const yName = yColumn ? columnTitle(yColumn, pageLanguage) : '';
  const count = rows.data?.count ?? 0;

  return (
    <Flex vertical gap={12}>
      <Form layout={isPhone ? 'vertical' : 'inline'} style={{ rowGap: 8 }}>
        <Form.Item label={t('tablesUi.chart.x')} htmlFor="chart-x">
          <Select id="chart-x" value={x} onChange={setX} options={axes.map(option)} style={{ minWidth: 200 }} />
        </Form.Item>
        <Form.Item label={t('tablesUi.chart.y')} htmlFor="chart-y">
          <Select id="chart-y" value={y} onChange={setY} options={numbers.map(option)} style={{ minWidth: 200 }} />
        </Form.Item>
        <Form.Item label={t('tablesUi.chart.kind')}>
          <Segmented<'scatter' | 'line'>
            value={kind}
            onChange={setKind}
            options={[
              { value: 'scatter', label: t('tablesUi.chart.scatter') },
              { value: 'line', label: t('tablesUi.chart.line') },
            ]}
          />
        </Form.Item>
      </Form>
      {rows.error ? (
        <Alert type="error" showIcon title={refusal(rows.error, t('tablesUi.loadFailed'))} />
      ) : rows.isPending ? (
        <Spin />
      ) : (
        <>
          <Typography.Text type="secondary">
            {count > CHART_ROWS
              ? t('tablesUi.chart.firstRows', { shown: formatCount(CHART_ROWS), count: formatCount(count), column: xName })
              : t('tablesUi.chart.allRows', { count, countText: formatCount(count) })}
          </Typography.Text>
          <Suspense fallback={<Spin />}>
            <TableChart
              kind={kind}
              xAxis={xColumn ? axisOf(xColumn) : 'value'}
              xName={xName}
              yName={yName}
              points={points}
              label={t('tablesUi.chart.label', { y: yName, x: xName })}
              isPhone={isPhone}
            />
          </Suspense>
        </>
      )}
    </Flex>
  );
}
