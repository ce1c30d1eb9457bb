import { Alert, Button, Card, Input, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '@portal/shared';
import { refusal } from '../../../api/form';
import { formatCount, formatDateTime } from '../../../components/format';
import { tablePagination } from '../../../components/table-pagination';
import { datasetTitle, landingPath, PageTitle } from '../../orders/components/common';
import { useTableList, viewerPath, type TableListItem, type TableListQuery } from '../api';

/**
 * /data/detailedData: the tables the caller may read (those of records whose files they may
 * download, their own drafts', every one for staff), newest first, searched on the table's name
 * and its record's titles.
 */
export default function TableListPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<TableListQuery>({ page: 1, pageSize: DEFAULT_PAGE_SIZE, search: '' });
  const { data, isFetching, error, refetch } = useTableList(query);

  const columns: TableColumnsType<TableListItem> = [
    {
      key: 'name',
      title: t('tablesUi.list.name'),
      render: (_, table) => (
        <Link to={viewerPath(table.record.id, table.code)} style={{ overflowWrap: 'anywhere' }}>
          {table.name}
        </Link>
      ),
    },
    {
      key: 'record',
      title: t('tablesUi.list.record'),
      render: (_, table) => (
        <a href={landingPath(table.record.id)} style={{ overflowWrap: 'anywhere' }}>
          {datasetTitle(table.record)}
        </a>
      ),
    },
    { key: 'rows', title: t('tablesUi.list.rows'), dataIndex: 'rows', align: 'end', width: 110, render: (rows: number) => formatCount(rows) },
    { key: 'columns', title: t('tablesUi.list.columns'), dataIndex: 'columns', align: 'end', width: 90, responsive: ['md'], render: (count: number) => formatCount(count) },
    { key: 'created', title: t('tablesUi.list.created'), dataIndex: 'created', width: 190, responsive: ['lg'], render: (value: string) => formatDateTime(value) },
  ];

  return (
    <Card title={<PageTitle>{t('tablesUi.title')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('tablesUi.list.intro')}</Typography.Paragraph>
      <Input.Search
        allowClear
        enterButton={t('tablesUi.list.search')}
        placeholder={t('tablesUi.list.searchPlaceholder')}
        aria-label={t('tablesUi.list.searchPlaceholder')}
        onSearch={(search) => setQuery({ ...query, page: 1, search: search.trim() })}
        style={{ maxWidth: 480, marginBottom: 16 }}
      />
      {error ? (
        <Alert
          type="error"
          showIcon
          title={refusal(error, t('tablesUi.loadFailed'))}
          action={
            <Button size="small" onClick={() => void refetch()}>
              {t('tablesUi.retry')}
            </Button>
          }
        />
      ) : (
        <Table<TableListItem>
          rowKey="code"
          loading={isFetching}
          columns={columns}
          dataSource={data?.results ?? []}
          locale={{ emptyText: query.search ? t('tablesUi.list.noMatch') : t('tablesUi.list.empty') }}
          pagination={tablePagination(data?.count, query, setQuery)}
        />
      )}
    </Card>
  );
}
