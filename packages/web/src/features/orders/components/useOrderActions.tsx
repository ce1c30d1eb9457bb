import { Button, Popconfirm, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { APPLICANT_ACTIONS } from '@portal/shared';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, ordersKeys, type Order } from '../api';
import { statusOf } from './common';
import { usePlacedDialog } from './usePlacedDialog';

/** The applicant's actions on an order, as APPLICANT_ACTIONS allows them in its state (the server decides again). */
export function OrderActions({ order, onDeleted }: { order: Order; onDeleted?: () => void }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const showPlaced = usePlacedDialog();
  const status = statusOf(order);
  const actions = APPLICANT_ACTIONS[status];

  const remove = async () => {
    if (!(await run(() => ordersApi.remove([order.id])))) return;
    message.success(t('orders.deleted'));
    await queryClient.invalidateQueries({ queryKey: ordersKeys.all });
    onDeleted?.();
  };
  const reapply = async () => {
    const reply = await run(() => ordersApi.reapply(order.id));
    if (!reply) return;
    await queryClient.invalidateQueries({ queryKey: ordersKeys.all });
    showPlaced(reply);
  };

  return (
    <Space wrap size={[8, 4]}>
      {actions.includes('edit') && (
        <Button size="small" onClick={() => navigate(`/data/applyform?order=${order.id}`)}>
          {t('ordersUi.orders.edit')}
        </Button>
      )}
      {actions.includes('download') && (
        <Button size="small" type="primary" onClick={() => navigate('/data/downloadData')}>
          {t('ordersUi.orders.download')}
        </Button>
      )}
      {status === 'approved' && order.voucher_code && (
        <Button size="small" onClick={() => navigate(`/data/voucherDetail/${order.id}`)}>
          {t('ordersUi.orders.voucher')}
        </Button>
      )}
      {actions.includes('reapply') && (
        <Popconfirm title={t('ordersUi.orders.reapplyConfirm')} okText={t('ordersUi.common.yes')} cancelText={t('ordersUi.common.no')} onConfirm={reapply}>
          <Button size="small">{t('ordersUi.orders.reapply')}</Button>
        </Popconfirm>
      )}
      {actions.includes('delete') && (
        <Popconfirm title={t('ordersUi.orders.deleteConfirm')} okText={t('ordersUi.common.yes')} cancelText={t('ordersUi.common.no')} onConfirm={remove}>
          <Button size="small" danger>
            {t('ordersUi.orders.delete')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
