import { Card, Flex, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { PageSpinner } from '../../../components/PageSpinner';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, ordersKeys } from '../api';
import { FtpDownloadAccount } from '../../ftp/FtpDownloadAccount';
import { ApplicationDetails, DatasetLinks, datasetTitle, PageTitle, StatusTag, statusOf } from '../components/common';
import { OrderActions } from '../components/useOrderActions';
import { LoadFailed } from './BasketPage';
import { OrderDates, OverdueNotice } from './OrderListPage';
import { ArchiveDownloads } from '../components/ArchiveDownloads';

/** /data/order/:id: one order with its application, as its applicant reads it; approved, an FTP account per dataset (issue 19). */
export default function OrderDetailPage() {
  const { id = '' } = useParams();
  const { t } = useFeedback();
  const navigate = useNavigate();
  const { data: order, isLoading, isError, refetch } = useQuery({ queryKey: ordersKeys.one(id), queryFn: () => ordersApi.one(id) });
  if (isLoading) return <PageSpinner />;
  if (isError || !order) return <LoadFailed onRetry={() => void refetch()} />;
  return (
    <Card title={<PageTitle>{t('ordersUi.orders.detailTitle')}</PageTitle>} extra={<Link to="/data/order">{t('ordersUi.orders.back')}</Link>}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Space wrap>
          <StatusTag order={order} />
          <span>{t(`orders.handler.${order.handler}`)}</span>
          {order.handler === 'owner' && order.owner_name && <span>({order.owner_name})</span>}
        </Space>
        <OverdueNotice order={order} />
        <DatasetLinks lines={order.lines} showDoi />
        {statusOf(order) === 'approved' && (
          <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid="order-ftp">
            <Typography.Text strong>{t('ftpUi.download.title')}</Typography.Text>
            <Typography.Text type="secondary">{t('ftpUi.download.intro')}</Typography.Text>
            {order.lines.map((line) => (
              <Flex key={line.metadata_id} wrap gap={8} align="center" justify="space-between">
                <span style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{datasetTitle(line)}</span>
                <FtpDownloadAccount metadataId={line.metadata_id} title={datasetTitle(line)} />
              </Flex>
            ))}
          </Space>
        )}
        <OrderDates order={order} />
        <ApplicationDetails order={order} extra={order.decision_reason ? [{ key: 'decision', label: t('ordersUi.orders.decisionReason'), children: order.decision_reason }] : []} />
        <Space wrap>
          <OrderActions order={order} onDeleted={() => navigate('/data/order')} />
          {order.handler !== 'online' && <Link to={`/offline/Application/${order.id}`}>{t('ordersUi.offline.open')}</Link>}
        </Space>
        {statusOf(order) === 'approved' && <ArchiveDownloads order={order} />}
      </Space>
    </Card>
  );
}
