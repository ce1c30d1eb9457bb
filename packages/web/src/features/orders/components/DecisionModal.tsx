import { Form, Input, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ORDER_LIMITS, type OrderDecision } from '@portal/shared';
import { ApiError } from '../../metadata/api';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, type Order, type OrderPage } from '../api';

export interface PendingDecision {
  orders: Order[];
  status: OrderDecision;
}

/**
 * A handler's decision on one or several requests (`POST /account/order-handle/`). A rejection or a
 * return needs a reason, which the applicant reads (the server asks for it too). On success the
 * lists' entries of those orders take their new state and a dialog says so; a 409 (decided
 * meanwhile) shows the server's message and reads the lists again.
 */
export function DecisionModal({ pending, onClose }: { pending: PendingDecision | null; onClose: () => void }) {
  const { modal, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const needsReason = pending?.status !== 'approved';

  const submit = async ({ reason }: { reason: string }) => {
    if (!pending) return;
    setBusy(true);
    try {
      const { results } = await ordersApi.handle({ orders: pending.orders.map((order) => order.id), status: pending.status, reason: reason ?? '' });
      const changed = new Map(results.map((order) => [order.id, order]));
      queryClient.setQueriesData<OrderPage>({ queryKey: ['orders', 'list'] }, (page) =>
        page ? { ...page, results: page.results.map((order) => changed.get(order.id) ?? order) } : page,
      );
      for (const order of results) queryClient.setQueryData(['orders', 'one', order.id], order);
      form.resetFields();
      onClose();
      modal.success({ title: t('orders.handled'), content: t(`ordersUi.requests.done.${pending.status}`, { count: results.length }) });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        message.error(error.message);
        onClose();
        await queryClient.invalidateQueries({ queryKey: ['orders'] });
      } else if (error instanceof ApiError) {
        const field = typeof error.reply.reason === 'object' && Array.isArray(error.reply.reason) ? String(error.reply.reason[0]) : undefined;
        if (field) form.setFields([{ name: 'reason', errors: [field] }]);
        else message.error(error.message.startsWith('HTTP') ? t('errors.formGeneric') : error.message);
      } else message.error(t('errors.formGeneric'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={Boolean(pending)}
      title={pending ? t(`ordersUi.requests.confirm.${pending.status}`, { count: pending.orders.length }) : ''}
      okText={pending ? t(`ordersUi.requests.actions.${pending.status}`) : ''}
      cancelText={t('ordersUi.common.cancel')}
      okButtonProps={{ danger: pending?.status === 'rejected', loading: busy }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {pending && (
        <Typography.Paragraph type="secondary">
          {pending.orders
            .map((order) => order.application.realName)
            .filter((name, index, names) => names.indexOf(name) === index)
            .join(', ')}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} preserve>
        <Form.Item
          name="reason"
          label={t(needsReason ? 'ordersUi.requests.reason' : 'ordersUi.requests.reasonOptional')}
          rules={[
            { required: needsReason, whitespace: true, message: t('orders.reasonRequired') },
            { max: ORDER_LIMITS.decisionReasonMax, message: t('orders.validation.reasonLong') },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} count={{ show: true, max: ORDER_LIMITS.decisionReasonMax }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
