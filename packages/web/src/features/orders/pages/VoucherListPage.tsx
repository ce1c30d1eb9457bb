import { Card, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '@portal/shared';
import { formatDate, formatDateTime } from '../../../components/format';
import { useFeedback } from '../../metadata/components/useFeedback';
import type { Order } from '../api';
import { OrderTable } from '../components/OrderTable';
import { DatasetLinks, PageTitle } from '../components/common';

/** /data/voucher: the approved orders, each with its voucher (what a funder or journal is shown). */
export default function VoucherListPage() {
  const { t } = useFeedback();
  const [query, setQuery] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE, status: 'approved' });
  const columns: TableColumnsType<Order> = [
    { title: t('ordersUi.common.datasets'), key: 'lines', render: (_, order) => <DatasetLinks lines={order.lines} /> },
    { title: t('ordersUi.common.decidedAt'), dataIndex: 'decided_at', width: 190, responsive: ['md'], render: (value: string | null) => formatDateTime(value) },
    {
      title: t('ordersUi.common.expiresAt'),
      dataIndex: 'expires_at',
      width: 140,
      responsive: ['md'],
      render: (value: string | null) => formatDate(value) || t('ordersUi.voucher.noExpiry'),
    },
    {
      title: t('ordersUi.voucher.code'),
      key: 'code',
      width: 200,
      render: (_, order) =>
        order.voucher_code ? (
          <Link to={`/data/voucherDetail/${order.id}`}>
            <Typography.Text code>{order.voucher_code}</Typography.Text>
          </Link>
        ) : null,
    },
  ];
  return (
    <Card title={<PageTitle>{t('ordersUi.voucher.listTitle')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('ordersUi.voucher.intro')}</Typography.Paragraph>
      <OrderTable query={query} onQuery={setQuery} columns={columns} emptyText={t('ordersUi.voucher.empty')} />
    </Card>
  );
}
