import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PlaceOrderReply } from '../api';

/**
 * Spec section 4: an application answered 'Success' (every dataset granted at once) opens a success
 * dialog that leads to the download page; 'Waiting' a dialog that leads to the order history.
 */
export function usePlacedDialog() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  return (reply: PlaceOrderReply) => {
    if (reply.status === 'Success')
      modal.success({
        title: t('ordersUi.placed.successTitle'),
        content: t('ordersUi.placed.successText'),
        okText: t('ordersUi.placed.toDownload'),
        onOk: () => navigate('/data/downloadData'),
      });
    else
      modal.info({
        title: t('ordersUi.placed.waitingTitle'),
        content: t('ordersUi.placed.waitingText', { count: reply.order.orders.filter((order) => order.status === 'waiting').length }),
        okText: t('ordersUi.placed.toOrders'),
        onOk: () => navigate('/data/order'),
      });
  };
}
