import { Button, Card, Form, Select, Table, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { METHOD_LIMITS, ORDER_LIMITS } from '@portal/shared';
import { formatDate } from '../../../components/format';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, ordersKeys, type CartLine } from '../../orders/api';
import { datasetTitle, landingPath, PageTitle } from '../../orders/components/common';
import { isEmbargoed } from '../../orders/selection';
import { analysisApi, analysisKeys, methodName } from '../api';
import { LoadFailed } from '../components/common';

const BASKET_QUERY = { page: 1, pageSize: ORDER_LIMITS.basketMax };
/** The methods offered: the caller's own, then the public ones (the first page of each, most used first). */
const MINE_QUERY = { page: 1, pageSize: 100, mine: true };
const PUBLIC_QUERY = { page: 1, pageSize: 100 };

/**
 * /data/analyze: a method run on datasets of the data cart. The datasets chosen here (those out of
 * their protection period) go to the run page with the method, where the run starts.
 */
export default function CartAnalyzePage() {
  const { message, t } = useFeedback();
  const navigate = useNavigate();
  const basket = useQuery({ queryKey: ordersKeys.basket(BASKET_QUERY), queryFn: () => ordersApi.basket(BASKET_QUERY) });
  const mine = useQuery({ queryKey: analysisKeys.methods(MINE_QUERY), queryFn: () => analysisApi.methods(MINE_QUERY) });
  const shared = useQuery({ queryKey: analysisKeys.methods(PUBLIC_QUERY), queryFn: () => analysisApi.methods(PUBLIC_QUERY) });
  const lines = useMemo(() => (basket.data?.results ?? []).filter((line) => !isEmbargoed(line)), [basket.data]);
  const [picked, setPicked] = useState<string[] | null>(null);
  // Every dataset of the cart is chosen until the reader changes the choice.
  const selected = picked ?? lines.slice(0, METHOD_LIMITS.datasets).map((line) => line.id);
  const [method, setMethod] = useState<string>();

  const methodGroups = useMemo(() => {
    const own = mine.data?.results ?? [];
    const ownIds = new Set(own.map((item) => item.id));
    const others = (shared.data?.results ?? []).filter((item) => !ownIds.has(item.id));
    return [
      { label: t('analysisUi.my.title'), title: 'mine', options: own.map((item) => ({ value: item.id, label: methodName(item) })) },
      { label: t('analysisUi.cart.publicMethods'), title: 'public', options: others.map((item) => ({ value: item.id, label: methodName(item) })) },
    ].filter((group) => group.options.length);
  }, [mine.data, shared.data, t]);

  const analyse = () => {
    const datasets = lines.filter((line) => selected.includes(line.id)).map((line) => line.metadata_id);
    if (!datasets.length) return void message.warning(t('analysisUi.cart.selectData'));
    if (datasets.length > METHOD_LIMITS.datasets) return void message.warning(t('analysisUi.cart.tooMany', { max: METHOD_LIMITS.datasets }));
    if (!method) return void message.warning(t('analysisUi.cart.selectMethod'));
    navigate(`/analyze/run/${method}?datasets=${datasets.map(encodeURIComponent).join(',')}`);
  };

  const columns: TableColumnsType<CartLine> = [
    { title: t('ordersUi.common.dataset'), dataIndex: 'title', render: (_, line) => <a href={landingPath(line.metadata_id)}>{datasetTitle(line)}</a> },
    { title: t('ordersUi.basket.addedAt'), dataIndex: 'created_at', width: 140, responsive: ['md'], render: (value: string) => formatDate(value) },
  ];

  return (
    <Card title={<PageTitle>{t('analysisUi.cart.title')}</PageTitle>} extra={<Link to="/data/basket">{t('ordersUi.basket.title')}</Link>}>
      <Typography.Paragraph type="secondary">{t('analysisUi.cart.intro', { max: METHOD_LIMITS.datasets })}</Typography.Paragraph>
      {basket.isError ? (
        <LoadFailed onRetry={() => void basket.refetch()} />
      ) : (
        <Table<CartLine>
          rowKey="id"
          size="small"
          loading={basket.isLoading}
          columns={columns}
          dataSource={lines}
          locale={{ emptyText: t('analysisUi.cart.empty') }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setPicked(keys as string[]), getCheckboxProps: (line) => ({ 'aria-label': datasetTitle(line) }) }}
          pagination={false}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form layout="vertical" onFinish={analyse} style={{ maxWidth: 560 }}>
        <Form.Item label={t('analysisUi.cart.method')} htmlFor="cart-method">
          <Select
            id="cart-method"
            value={method}
            onChange={setMethod}
            options={methodGroups}
            showSearch={{ optionFilterProp: 'label' }}
            loading={mine.isLoading || shared.isLoading}
            placeholder={t('analysisUi.cart.methodPlaceholder')}
            notFoundContent={t('analysisUi.explore.empty')}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('analysisUi.cart.analyse', { count: selected.length })}
        </Button>
      </Form>
    </Card>
  );
}
