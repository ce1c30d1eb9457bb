import { Alert, Button, Card, Form, Input, List, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { applicationFormSchema, COUNTRY_CODES, countryName, ORDER_LIMITS, type User } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { PageSpinner } from '../../../components/PageSpinner';
import { zodRule } from '../../../components/zod-rule';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, ordersKeys, type ApplicationForm, type Order, type PlaceOrderReply } from '../api';
import { DatasetLinks, datasetTitle, landingPath, PageTitle } from '../components/common';
import { usePlacedDialog } from '../components/usePlacedDialog';
import { BASKET_QUERY, LoadFailed } from './BasketPage';

const FIELDS = ['realName', 'email', 'phone', 'zipcode', 'affiliation', 'address'] as const;
const AUTOCOMPLETE: Record<(typeof FIELDS)[number], string> = {
  realName: 'name',
  email: 'email',
  phone: 'tel',
  zipcode: 'postal-code',
  affiliation: 'organization',
  address: 'street-address',
};
/** What was typed, kept in this tab until the application is sent, so that a reload or a failure loses nothing. */
const draftKey = (target: string) => `portal.applyform.${target}`;

function readDraft(target: string): Partial<ApplicationForm> | undefined {
  try {
    const text = sessionStorage.getItem(draftKey(target));
    return text ? (JSON.parse(text) as Partial<ApplicationForm>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * /data/applyform: the application (spec sections 3 to 5). `?line=<ids>` applies for basket lines
 * (POST /api/account/order/); `?order=<id>` changes the form of a waiting or returned order
 * (PUT /api/account/order/{id}/). Fields are checked by the server's own schema.
 */
export default function ApplyFormPage({ user }: { user: User }) {
  const [params] = useSearchParams();
  const orderId = params.get('order');
  return orderId ? <EditOrder orderId={orderId} /> : <NewApplication user={user} lineIds={(params.get('line') ?? '').split(',').filter(Boolean)} />;
}

function NewApplication({ user, lineIds }: { user: User; lineIds: string[] }) {
  const { t } = useFeedback();
  const basket = useQuery({ queryKey: ordersKeys.basket(BASKET_QUERY), queryFn: () => ordersApi.basket(BASKET_QUERY) });
  const lines = (basket.data?.results ?? []).filter((line) => lineIds.includes(line.id));
  if (basket.isLoading) return <PageSpinner />;
  if (basket.isError) return <LoadFailed onRetry={() => void basket.refetch()} />;
  const initial: Partial<ApplicationForm> = {
    realName: user.realname,
    email: user.email,
    phone: user.phone,
    zipcode: user.zipcode,
    affiliation: user.affiliation,
    address: user.address,
  };
  return (
    <Card title={<PageTitle>{t('ordersUi.form.title')}</PageTitle>}>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {t('ordersUi.form.datasets', { count: lines.length })}
      </Typography.Title>
      {lines.length ? (
        <List
          size="small"
          style={{ marginBottom: 24 }}
          dataSource={lines}
          renderItem={(line) => (
            <List.Item>
              <a href={landingPath(line.metadata_id)}>{datasetTitle(line)}</a>
            </List.Item>
          )}
        />
      ) : (
        <Alert type="warning" showIcon style={{ marginBottom: 24 }} title={t('ordersUi.form.noLines')} />
      )}
      <ApplicationFormFields
        target="new"
        initial={initial}
        disabled={!lines.length}
        submitLabel={t('ordersUi.form.submit')}
        onSubmit={(values) => ordersApi.place({ ...values, line: lines.map((line) => line.id) })}
      />
    </Card>
  );
}

function EditOrder({ orderId }: { orderId: string }) {
  const { t } = useFeedback();
  const order = useQuery({ queryKey: ordersKeys.one(orderId), queryFn: () => ordersApi.one(orderId) });
  if (order.isLoading) return <PageSpinner />;
  if (order.isError || !order.data) return <LoadFailed onRetry={() => void order.refetch()} />;
  const { application } = order.data;
  return (
    <Card title={<PageTitle>{t('ordersUi.form.editTitle')}</PageTitle>}>
      {order.data.decision_reason && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('ordersUi.orders.decisionReason')} description={order.data.decision_reason} />
      )}
      <div style={{ marginBottom: 24 }}>
        <DatasetLinks lines={order.data.lines} />
      </div>
      <ApplicationFormFields
        target={orderId}
        // Unknown ('') shows as not chosen: the country is optional.
        initial={{ ...application, country: application.country || undefined }}
        submitLabel={t('ordersUi.form.save')}
        onSubmit={(values) => ordersApi.update(orderId, values)}
      />
    </Card>
  );
}

/** The form itself; after a placed order the dialog of spec section 4, after an edit its own. */
function ApplicationFormFields({
  target,
  initial,
  disabled,
  submitLabel,
  onSubmit,
}: {
  target: string;
  initial: Partial<ApplicationForm>;
  disabled?: boolean;
  submitLabel: string;
  onSubmit: (values: ApplicationForm) => Promise<PlaceOrderReply | Order>;
}) {
  const { run, modal, t } = useFeedback();
  const [form] = Form.useForm<ApplicationForm>();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const showPlaced = usePlacedDialog();
  const [busy, setBusy] = useState(false);
  const initialValues = useMemo(() => ({ ...initial, ...readDraft(target) }), [initial, target]);
  const countries = useMemo(
    () => COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code, pageLanguage) })).sort((a, b) => a.label.localeCompare(b.label, pageLanguage)),
    [],
  );
  const labels = Object.fromEntries([...FIELDS, 'country', 'reason', 'line'].map((name) => [name, t(`ordersUi.form.${name}`)]));

  const submit = async (values: ApplicationForm) => {
    setBusy(true);
    const reply = await run(() => onSubmit(values), form, labels);
    setBusy(false);
    if (!reply) return;
    sessionStorage.removeItem(draftKey(target));
    await queryClient.invalidateQueries({ queryKey: ordersKeys.all });
    if ('order' in reply) showPlaced(reply);
    else
      modal.success({
        title: t('orders.updated'),
        content: t('ordersUi.form.updatedText'),
        okText: t('ordersUi.form.toOrders'),
        onOk: () => navigate('/data/order'),
      });
  };

  return (
    <Form<ApplicationForm>
      form={form}
      layout="vertical"
      style={{ maxWidth: 640 }}
      initialValues={initialValues}
      disabled={disabled}
      onValuesChange={(_, all) => sessionStorage.setItem(draftKey(target), JSON.stringify(all))}
      onFinish={(values) => void submit(values)}
    >
      {FIELDS.map((name) => (
        <Form.Item key={name} name={name} label={labels[name]} required rules={[zodRule(applicationFormSchema.shape[name], t)]}>
          <Input autoComplete={AUTOCOMPLETE[name]} type={name === 'email' ? 'email' : undefined} />
        </Form.Item>
      ))}
      {/* Ours, not the spec's seven fields: optional (left out, the server takes the last one given). */}
      <Form.Item name="country" label={labels.country} rules={[zodRule(applicationFormSchema.shape.country, t)]}>
        <Select showSearch allowClear optionFilterProp="label" options={countries} placeholder={t('ordersUi.form.countryPlaceholder')} />
      </Form.Item>
      <Form.Item name="reason" label={labels.reason} required rules={[zodRule(applicationFormSchema.shape.reason, t)]} extra={t('ordersUi.form.reasonHelp')}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} count={{ show: true, max: ORDER_LIMITS.reasonMax }} />
      </Form.Item>
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={busy}>
          {submitLabel}
        </Button>
      </Space>
    </Form>
  );
}
