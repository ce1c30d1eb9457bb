import { Alert, Card, Select, Space, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE, ORDER_STATUSES } from '@portal/shared';
import { formatDate, formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import type { Order } from '../api';
import { OrderTable } from '../components/OrderTable';
import { DatasetLinks, PageTitle, StatusTag } from '../components/common';
import { OrderActions } from '../components/useOrderActions';

/** An offline request unanswered for three days: the applicant contacts the provider (spec section 6). */
export function OverdueNotice({ order }: { order: Order }) {
  const { t } = useFeedback();
  if (!order.reply_overdue) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title={
        <span>
          {t('ordersUi.orders.overdue')} {order.contact_email && <a href={`mailto:${order.contact_email}`}>{order.contact_email}</a>}
        </span>
      }
    />
  );
}

/** /data/order: the applicant's orders, one a handler's share of an application (spec sections 2, 4, 8). */
export default function OrderListPage() {
  const { t } = useFeedback();
  const isPhone = useIsPhone();
  const [query, setQuery] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE, status: '' });

  const columns: TableColumnsType<Order> = [
    {
      title: t('ordersUi.common.datasets'),
      key: 'lines',
      render: (_, order) => (
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          <DatasetLinks lines={order.lines} />
          <Typography.Text type="secondary">{t(`orders.handler.${order.handler}`)}</Typography.Text>
          {isPhone && (
            <Space wrap size={4}>
              <StatusTag order={order} />
              <Typography.Text type="secondary">{formatDate(order.created_at)}</Typography.Text>
            </Space>
          )}
          {order.decision_reason && (
            <Typography.Text>
              {t('ordersUi.orders.decisionReason')}: {order.decision_reason}
            </Typography.Text>
          )}
          <OverdueNotice order={order} />
          {isPhone && <OrderActions order={order} />}
          <Link to={`/data/order/${order.id}`}>{t('ordersUi.orders.details')}</Link>
        </Space>
      ),
    },
    { title: t('ordersUi.common.status'), key: 'status', width: 170, responsive: ['md'], render: (_, order) => <StatusTag order={order} /> },
    {
      title: t('ordersUi.common.dates'),
      key: 'dates',
      width: 220,
      responsive: ['md'],
      render: (_, order) => <OrderDates order={order} />,
    },
    { title: t('ordersUi.common.actions'), key: 'actions', width: 220, responsive: ['md'], render: (_, order) => <OrderActions order={order} /> },
  ];

  return (
    <Card
      title={<PageTitle>{t('ordersUi.orders.title')}</PageTitle>}
      extra={
        <Select
          aria-label={t('ordersUi.common.status')}
          style={{ minWidth: 160 }}
          value={query.status}
          onChange={(status) => setQuery({ ...query, status, page: 1 })}
          options={[{ value: '', label: t('ordersUi.common.allStatuses') }, ...ORDER_STATUSES.map((status) => ({ value: status, label: t(`orders.status.${status}`) }))]}
        />
      }
    >
      <OrderTable query={query} onQuery={setQuery} columns={columns} emptyText={t('ordersUi.orders.empty')} />
    </Card>
  );
}

/** When it was applied for, decided, and until when it is valid. */
export function OrderDates({ order }: { order: Order }) {
  const { t } = useFeedback();
  return (
    <Space orientation="vertical" size={0}>
      <span>
        {t('ordersUi.common.appliedAt')}: {formatDateTime(order.created_at)}
      </span>
      {order.decided_at && (
        <span>
          {t('ordersUi.common.decidedAt')}: {formatDateTime(order.decided_at)}
        </span>
      )}
      {order.expires_at && (
        <span>
          {t('ordersUi.common.expiresAt')}: {formatDate(order.expires_at)}
        </span>
      )}
    </Space>
  );
}
