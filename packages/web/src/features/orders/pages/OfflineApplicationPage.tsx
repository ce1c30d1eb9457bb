import { Button, Descriptions, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { countryName } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { siteVariant } from '../../../app/site';
import { formatDateTime } from '../../../components/format';
import { PageSpinner } from '../../../components/PageSpinner';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, ordersKeys } from '../api';
import { datasetTitle, useTermsLayout, statusOf } from '../components/common';
import { LoadFailed } from './BasketPage';
import '../components/print.css';

/**
 * /offline/Application/:id: an offline order's application as a document to print and sign,
 * outside the shell (its applicant's or its handler's: the server decides who may read it).
 */
export default function OfflineApplicationPage() {
  const { id = '' } = useParams();
  const { t } = useFeedback();
  const termsLayout = useTermsLayout();
  const { data: order, isLoading, isError, refetch } = useQuery({ queryKey: ordersKeys.one(id), queryFn: () => ordersApi.one(id) });
  useEffect(() => {
    document.title = `${t('ordersUi.offline.title')} - ${t(`site.${siteVariant()}.title`)}`;
  }, [t]);
  if (isLoading) return <PageSpinner />;
  if (isError || !order) return <LoadFailed onRetry={() => void refetch()} />;
  const form = order.application;
  return (
    <main className="print-document" style={{ padding: 24 }}>
      <Space className="no-print" wrap style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => window.print()}>
          {t('ordersUi.common.print')}
        </Button>
        <Link to={`/data/order/${order.id}`}>{t('ordersUi.orders.detailTitle')}</Link>
      </Space>
      <Typography.Title level={1} style={{ fontSize: 24, textAlign: 'center' }}>
        {t(`site.${siteVariant()}.title`)}
        <br />
        {t('ordersUi.offline.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        {t('ordersUi.offline.number', { id: order.id })} · {t(`orders.handler.${order.handler}`)} · {t(`orders.status.${statusOf(order)}`)}
      </Typography.Paragraph>
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        {t('ordersUi.offline.applicant')}
      </Typography.Title>
      <Descriptions
        bordered
        size="small"
        column={1}
        {...termsLayout}
        items={[
          { key: 'realName', label: t('ordersUi.form.realName'), children: form.realName },
          { key: 'affiliation', label: t('ordersUi.form.affiliation'), children: form.affiliation },
          { key: 'country', label: t('ordersUi.form.country'), children: form.country ? countryName(form.country, pageLanguage) : '' },
          { key: 'address', label: t('ordersUi.form.address'), children: `${form.address} ${form.zipcode}` },
          { key: 'email', label: t('ordersUi.form.email'), children: form.email },
          { key: 'phone', label: t('ordersUi.form.phone'), children: form.phone },
          { key: 'reason', label: t('ordersUi.form.reason'), children: <span style={{ whiteSpace: 'pre-wrap' }}>{form.reason}</span> },
          { key: 'date', label: t('ordersUi.common.appliedAt'), children: formatDateTime(order.created_at) },
        ]}
      />
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 24 }}>
        {t('ordersUi.common.datasets')}
      </Typography.Title>
      <ol>
        {order.lines.map((line) => (
          <li key={line.metadata_id}>
            {datasetTitle(line)}
            {line.doi && <div>DOI: {line.doi}</div>}
          </li>
        ))}
      </ol>
      <Typography.Paragraph>{t('ordersUi.offline.pledge')}</Typography.Paragraph>
      <div className="print-signatures">
        <div>{t('ordersUi.offline.applicantSignature')}</div>
        <div>{t('ordersUi.offline.providerSignature')}</div>
        <div>{t('ordersUi.offline.date')}</div>
      </div>
    </main>
  );
}
