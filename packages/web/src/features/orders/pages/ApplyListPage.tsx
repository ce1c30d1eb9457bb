import { Button, Card, Segmented, Space, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { countryName, DECIDABLE_STATUSES, DEFAULT_PAGE_SIZE, ORDER_DECISIONS, type OrderDecision } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import type { Order } from '../api';
import { OrderTable } from '../components/OrderTable';
import { DatasetLinks, PageTitle, StatusTag, statusOf } from '../components/common';
import { DecisionModal, type PendingDecision } from '../components/DecisionModal';

/** The lists a handler reads: what waits for them first, then what they decided. */
const FILTERS = ['waiting', 'returned', 'approved', 'rejected', ''] as const;

export const isDecidable = (order: Order) => DECIDABLE_STATUSES.includes(statusOf(order));

/** Approve, reject, return: one order's buttons, or the selection's. */
export function DecisionButtons({ orders, onDecide, size }: { orders: Order[]; onDecide: (decision: PendingDecision) => void; size?: 'small' }) {
  const { message, t } = useFeedback();
  const decide = (status: OrderDecision) => {
    if (!orders.length) return void message.warning(t('orders.validation.selectOrders'));
    onDecide({ orders, status });
  };
  return (
    <Space wrap size={[8, 4]}>
      {ORDER_DECISIONS.map((status) => (
        <Button key={status} size={size} type={status === 'approved' ? 'primary' : 'default'} danger={status === 'rejected'} onClick={() => decide(status)}>
          {t(`ordersUi.requests.actions.${status}`)}
        </Button>
      ))}
    </Space>
  );
}

/**
 * /apply-list: requests for data the caller decides: an owner's requests for their datasets shared by
 * e-mail, and, for staff, those of the data centre (`?role=handler`). Anyone who owns a record can
 * receive requests, so the menu shows it to everyone; an empty list says there are none.
 */
export default function ApplyListPage() {
  const { t } = useFeedback();
  const isPhone = useIsPhone();
  const [query, setQuery] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE, status: 'waiting' as string, role: 'handler' as const });
  const [selected, setSelected] = useState<Order[]>([]);
  const [pending, setPending] = useState<PendingDecision | null>(null);

  const columns: TableColumnsType<Order> = [
    {
      title: t('ordersUi.requests.applicant'),
      key: 'applicant',
      render: (_, order) => (
        <Space orientation="vertical" size={2}>
          <Link to={`/application/${order.id}`}>{order.application.realName}</Link>
          <Typography.Text type="secondary">
            {order.application.affiliation}
            {order.application.country && ` · ${countryName(order.application.country, pageLanguage)}`}
          </Typography.Text>
          <a href={`mailto:${order.application.email}`}>{order.application.email}</a>
          {isPhone && <DatasetLinks lines={order.lines} />}
          {isPhone && <StatusTag order={order} />}
          {isPhone && isDecidable(order) && <DecisionButtons size="small" orders={[order]} onDecide={setPending} />}
        </Space>
      ),
    },
    { title: t('ordersUi.common.datasets'), key: 'lines', responsive: ['md'], render: (_, order) => <DatasetLinks lines={order.lines} /> },
    {
      title: t('ordersUi.form.reason'),
      key: 'reason',
      responsive: ['lg'],
      render: (_, order) => (
        <Typography.Paragraph ellipsis={{ rows: 3, expandable: true, symbol: t('ordersUi.common.more') }} style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
          {order.application.reason}
        </Typography.Paragraph>
      ),
    },
    {
      title: t('ordersUi.common.status'),
      key: 'status',
      width: 190,
      responsive: ['md'],
      render: (_, order) => (
        <Space orientation="vertical" size={2}>
          <StatusTag order={order} />
          <Typography.Text type="secondary">{formatDateTime(order.created_at)}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('ordersUi.common.actions'),
      key: 'actions',
      width: 250,
      responsive: ['md'],
      render: (_, order) => (isDecidable(order) ? <DecisionButtons size="small" orders={[order]} onDecide={setPending} /> : null),
    },
  ];

  return (
    <Card title={<PageTitle>{t('ordersUi.requests.title')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('ordersUi.requests.intro')}</Typography.Paragraph>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <div style={{ overflowX: 'auto' }}>
          <Segmented
            value={query.status}
            onChange={(status) => {
              setSelected([]);
              setQuery({ ...query, status: String(status), page: 1 });
            }}
            options={FILTERS.map((status) => ({ value: status, label: status ? t(`orders.status.${status}`) : t('ordersUi.common.allStatuses') }))}
          />
        </div>
        <Space wrap>
          <Typography.Text>{t('ordersUi.requests.selected', { count: selected.length })}</Typography.Text>
          <DecisionButtons orders={selected} onDecide={setPending} />
        </Space>
        <OrderTable
          query={query}
          onQuery={setQuery}
          columns={columns}
          emptyText={t('ordersUi.requests.empty')}
          rowSelection={{
            selectedRowKeys: selected.map((order) => order.id),
            onChange: (_, rows) => setSelected(rows),
            getCheckboxProps: (order) => ({ disabled: !isDecidable(order), 'aria-label': order.application.realName }),
          }}
        />
      </Space>
      <DecisionModal
        pending={pending}
        onClose={() => {
          setPending(null);
          setSelected([]);
        }}
      />
    </Card>
  );
}
