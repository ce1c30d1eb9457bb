import { Table, type TableColumnsType, type TableProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { tablePagination } from '../../../components/table-pagination';
import { ordersApi, ordersKeys, type Order, type OrderQuery } from '../api';
import { LoadFailed } from '../pages/BasketPage';

/**
 * A page of orders as `GET /api/account/order/` answers `query` (the applicant's, or with
 * `role: 'handler'` those the caller decides), paged in the query, with a retry when it fails.
 */
export function OrderTable<Q extends OrderQuery & { page: number; pageSize: number }>({
  query,
  onQuery,
  columns,
  emptyText,
  rowSelection,
}: {
  query: Q;
  onQuery: (query: Q) => void;
  columns: TableColumnsType<Order>;
  emptyText: string;
  rowSelection?: TableProps<Order>['rowSelection'];
}) {
  const { data, isLoading, isError, refetch } = useQuery({ queryKey: ordersKeys.list(query), queryFn: () => ordersApi.list(query) });
  if (isError) return <LoadFailed onRetry={() => void refetch()} />;
  return (
    <Table<Order>
      rowKey="id"
      loading={isLoading}
      columns={columns}
      dataSource={data?.results ?? []}
      locale={{ emptyText }}
      rowSelection={rowSelection}
      pagination={tablePagination(data?.count, query, onQuery)}
    />
  );
}
