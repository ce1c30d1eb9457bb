import { Space, Table, Typography, type TableColumnsType, type TableProps } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { tablePagination } from '../../../components/table-pagination';
import { analysisApi, analysisKeys, methodDescription, type AnalysisMethod, type MethodQuery } from '../api';
import { LoadFailed } from './common';

/** A page of methods as `query` asks (the caller's, the public ones, searched), paged in the table; a failed read is said with a retry. */
export function MethodTable({
  query,
  onQuery,
  columns,
  emptyText,
  expandable,
}: {
  query: MethodQuery;
  onQuery: (query: MethodQuery) => void;
  columns: TableColumnsType<AnalysisMethod>;
  emptyText: string;
  expandable?: TableProps<AnalysisMethod>['expandable'];
}) {
  const methods = useQuery({ queryKey: analysisKeys.methods(query), queryFn: () => analysisApi.methods(query), placeholderData: keepPreviousData });
  if (methods.isError) return <LoadFailed onRetry={() => void methods.refetch()} />;
  return (
    <Table<AnalysisMethod>
      rowKey="id"
      loading={methods.isLoading}
      columns={columns}
      dataSource={methods.data?.results ?? []}
      locale={{ emptyText }}
      expandable={expandable}
      pagination={{ ...tablePagination(methods.data?.count, query, onQuery), hideOnSinglePage: true }}
    />
  );
}

/** A method's cell in these tables: its name (with tags), its description cut to two lines, and what a phone shows below them. */
export function MethodSummary({ method, name, below }: { method: AnalysisMethod; name: ReactNode; below?: ReactNode }) {
  const description = methodDescription(method);
  return (
    <Space orientation="vertical" size={4}>
      {name}
      {description && (
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
          {description}
        </Typography.Paragraph>
      )}
      {below}
    </Space>
  );
}
