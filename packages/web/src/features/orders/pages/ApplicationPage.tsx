import { Card, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageSpinner } from '../../../components/PageSpinner';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, ordersKeys } from '../api';
import { ApplicationDetails, DatasetLinks, PageTitle, StatusTag } from '../components/common';
import { DecisionModal, type PendingDecision } from '../components/DecisionModal';
import { LoadFailed } from './BasketPage';
import { DecisionButtons, isDecidable } from './ApplyListPage';
import { OrderDates } from './OrderListPage';

/** /application/:id: one incoming request, the applicant's form and the datasets, with the handler's decision. */
export default function ApplicationPage() {
  const { id = '' } = useParams();
  const { t } = useFeedback();
  const [pending, setPending] = useState<PendingDecision | null>(null);
  const { data: order, isLoading, isError, refetch } = useQuery({ queryKey: ordersKeys.one(id), queryFn: () => ordersApi.one(id) });
  if (isLoading) return <PageSpinner />;
  if (isError || !order) return <LoadFailed onRetry={() => void refetch()} />;
  return (
    <Card title={<PageTitle>{t('ordersUi.requests.detailTitle')}</PageTitle>} extra={<Link to="/apply-list">{t('ordersUi.requests.back')}</Link>}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Space wrap>
          <StatusTag order={order} />
          <span>{t(`orders.handler.${order.handler}`)}</span>
        </Space>
        <section aria-label={t('ordersUi.common.datasets')}>
          <Typography.Title level={2} style={{ fontSize: 16 }}>
            {t('ordersUi.common.datasets')}
          </Typography.Title>
          <DatasetLinks lines={order.lines} showDoi />
        </section>
        <ApplicationDetails order={order} extra={order.decision_reason ? [{ key: 'decision', label: t('ordersUi.orders.decisionReason'), children: order.decision_reason }] : []} />
        <OrderDates order={order} />
        <Space wrap>
          {isDecidable(order) && <DecisionButtons orders={[order]} onDecide={setPending} />}
          <Link to={`/offline/Application/${order.id}`}>{t('ordersUi.offline.open')}</Link>
        </Space>
      </Space>
      <DecisionModal pending={pending} onClose={() => setPending(null)} />
    </Card>
  );
}
