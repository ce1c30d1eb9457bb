import { Button, Card, Popconfirm, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ORDER_LIMITS } from '@portal/shared';
import { formatDate, formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, ordersKeys, type CartLine } from '../api';
import { datasetTitle, landingPath, PageTitle } from '../components/common';
import { isEmbargoed } from '../selection';

/** The whole basket in one read: it holds at most ORDER_LIMITS.basketMax lines. */
export const BASKET_QUERY = { page: 1, pageSize: ORDER_LIMITS.basketMax };

/**
 * /data/basket: the datasets collected for an application (spec sections 2, 3, 5). `?add=<id>` puts
 * a dataset in first: where a public page's "Add to data cart" sends a visitor through the login.
 */
export default function BasketPage() {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const isPhone = useIsPhone();
  const [params, setParams] = useSearchParams();
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const { data, isLoading, isError, refetch } = useQuery({ queryKey: ordersKeys.basket(BASKET_QUERY), queryFn: () => ordersApi.basket(BASKET_QUERY) });
  const lines = data?.results ?? [];

  const adding = params.get('add');
  const added = useRef<string | null>(null);
  useEffect(() => {
    if (!adding || added.current === adding) return;
    added.current = adding;
    setParams({}, { replace: true });
    void run(async () => {
      await ordersApi.addLine(adding);
      message.success(t('orders.addedToBasket'));
      await queryClient.invalidateQueries({ queryKey: ['orders', 'basket'] });
    });
  }, [adding, setParams, run, message, t, queryClient]);

  const remove = async () => {
    if (!selected.length) return void message.warning(t('orders.validation.selectData'));
    setBusy(true);
    const done = await run(async () => {
      for (const id of selected) await ordersApi.removeLine(id);
      return true;
    });
    setBusy(false);
    await queryClient.invalidateQueries({ queryKey: ['orders', 'basket'] });
    if (done) {
      message.success(t('orders.deleted'));
      setSelected([]);
    }
  };

  const apply = () => {
    if (!selected.length) return void message.warning(t('orders.validation.selectData'));
    navigate(`/data/applyform?line=${selected.join(',')}`);
  };

  const columns: TableColumnsType<CartLine> = [
    {
      title: t('ordersUi.common.dataset'),
      dataIndex: 'title',
      render: (_, line) => (
        <Space orientation="vertical" size={2}>
          <a href={landingPath(line.metadata_id)}>{datasetTitle(line)}</a>
          {isEmbargoed(line) && <Typography.Text type="warning">{t('ordersUi.basket.embargoed', { date: formatDate(line.embargo_until) })}</Typography.Text>}
          {isPhone && (
            <Typography.Text type="secondary">
              {t(`metadata.options.sharingPolicy.${line.sharing_policy}`, { defaultValue: line.sharing_policy })} · {formatDateTime(line.created_at)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('ordersUi.basket.shareType'),
      dataIndex: 'sharing_policy',
      width: 240,
      responsive: ['md'],
      render: (policy: string) => t(`metadata.options.sharingPolicy.${policy}`, { defaultValue: policy }),
    },
    { title: t('ordersUi.basket.addedAt'), dataIndex: 'created_at', width: 190, responsive: ['md'], render: (value: string) => formatDateTime(value) },
  ];

  return (
    <Card
      title={<PageTitle>{t('ordersUi.basket.title')}</PageTitle>}
      extra={<Typography.Text type="secondary">{t('ordersUi.basket.count', { count: lines.length, max: ORDER_LIMITS.basketMax })}</Typography.Text>}
    >
      <Typography.Paragraph type="secondary">{t('ordersUi.basket.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={apply} disabled={busy}>
          {t('ordersUi.basket.apply', { count: selected.length })}
        </Button>
        <Button onClick={() => navigate('/data/analyze')}>{t('analysisUi.cart.link')}</Button>
        <Popconfirm
          title={t('ordersUi.basket.deleteConfirm', { count: selected.length })}
          okText={t('ordersUi.common.yes')}
          cancelText={t('ordersUi.common.no')}
          onConfirm={remove}
          disabled={!selected.length}
        >
          <Button danger loading={busy} onClick={() => !selected.length && message.warning(t('orders.validation.selectData'))}>
            {t('ordersUi.basket.delete')}
          </Button>
        </Popconfirm>
      </Space>
      {isError ? (
        <LoadFailed onRetry={() => void refetch()} />
      ) : (
        <Table<CartLine>
          rowKey="id"
          loading={isLoading}
          columns={columns}
          dataSource={lines}
          locale={{ emptyText: t('ordersUi.basket.empty') }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as string[]),
            getCheckboxProps: (line) => ({ disabled: isEmbargoed(line), 'aria-label': datasetTitle(line) }),
          }}
          pagination={{ defaultPageSize: 10, showSizeChanger: true, hideOnSinglePage: true }}
        />
      )}
    </Card>
  );
}

/** A list that could not be read: said so, with a retry. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useFeedback();
  return (
    <Space orientation="vertical" role="alert">
      <Typography.Text type="danger">{t('ordersUi.common.loadFailed')}</Typography.Text>
      <Button onClick={onRetry}>{t('ordersUi.common.retry')}</Button>
    </Space>
  );
}
