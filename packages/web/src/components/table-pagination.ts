import type { TablePaginationConfig } from 'antd';

/** An Ant Design table's paging of a DRF list: the page and its size kept in the query, the total from `count`. */
export function tablePagination<Q extends { page: number; pageSize: number }>(count: number | undefined, query: Q, onChange: (query: Q) => void): TablePaginationConfig {
  return {
    current: query.page,
    pageSize: query.pageSize,
    total: count ?? 0,
    showSizeChanger: true,
    onChange: (page, pageSize) => onChange({ ...query, page, pageSize }),
  };
}
