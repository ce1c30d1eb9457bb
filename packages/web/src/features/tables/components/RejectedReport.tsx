import { Alert, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { pageLanguage } from '../../../app/i18n';
import { formatCount } from '../../../components/format';
import { columnTitle, type TableColumn, type TableImport } from '../api';

type Rejected = TableImport['rejected'][number];

/**
 * What an import would do (a dry run) or refused: the rows read, and each cell that does not fit its
 * column's type with its row as the sheet numbers it, its column, its value and why (the server's
 * words, in the page's language). The server lists the first 1000 and counts them all.
 */
export function RejectedReport({ report, columns }: { report: TableImport; columns: TableColumn[] }) {
  const { t } = useTranslation();
  const byField = new Map(columns.map((column) => [column.field, column]));
  const tableColumns: TableColumnsType<Rejected> = [
    { key: 'row', title: t('tablesUi.import.report.row'), dataIndex: 'row', width: 80, align: 'end' },
    {
      key: 'column',
      title: t('tablesUi.import.report.column'),
      render: (_, cell) => {
        const column = byField.get(cell.column);
        return column ? `${columnTitle(column, pageLanguage)} · ${cell.column}` : cell.column;
      },
    },
    { key: 'value', title: t('tablesUi.import.report.value'), dataIndex: 'value', render: (value: string) => <code style={{ overflowWrap: 'anywhere' }}>{value}</code> },
    { key: 'reason', title: t('tablesUi.import.report.reason'), dataIndex: 'reason' },
  ];
  const rows = formatCount(report.rows);
  if (report.rejected_count === 0) return <Alert type="success" showIcon role="status" title={t('tablesUi.import.report.allFit', { rows })} />;
  return (
    <section aria-label={t('tablesUi.import.report.title')} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <Alert
        type="warning"
        showIcon
        role="status"
        title={t('tablesUi.import.report.someRejected', { rows, count: report.rejected_count, countText: formatCount(report.rejected_count) })}
        description={report.rejected_count > report.rejected.length ? t('tablesUi.import.report.firstShown', { shown: formatCount(report.rejected.length) }) : undefined}
      />
      <Table<Rejected>
        rowKey={(cell) => `${cell.row}:${cell.column}`}
        size="small"
        scroll={{ x: 'max-content' }}
        columns={tableColumns}
        dataSource={report.rejected}
        pagination={report.rejected.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
      />
    </section>
  );
}
