import { Alert, Button, Card, Descriptions, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { languagePrefix, licenseUrl } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { siteVariant } from '../../../app/site';
import { formatDate, formatDateTime } from '../../../components/format';
import { PageSpinner } from '../../../components/PageSpinner';
import { useFeedback } from '../../metadata/components/useFeedback';
import { ordersApi, ordersKeys } from '../api';
import { datasetTitle, useTermsLayout, landingPath, PageTitle } from '../components/common';
import { LoadFailed } from './BasketPage';
import '../components/print.css';

/** The public address where anyone checks a voucher's code. */
export const voucherCheckUrl = (code: string) => `${location.origin}${languagePrefix(pageLanguage)}/voucher/${encodeURIComponent(code)}`;

/**
 * /data/voucherDetail/:id: the voucher of an approved order, to print: the datasets with their DOIs
 * and the citations asked for, terms of use and licence, who approved it and when, until when it
 * holds, and the code with the public address that verifies it.
 */
export default function VoucherDetailPage() {
  const { id = '' } = useParams();
  const { t } = useFeedback();
  const termsLayout = useTermsLayout();
  const { data: voucher, isLoading, isError, refetch } = useQuery({ queryKey: ordersKeys.voucher(id), queryFn: () => ordersApi.voucher(id) });
  if (isLoading) return <PageSpinner />;
  if (isError || !voucher) return <LoadFailed onRetry={() => void refetch()} />;
  const checkUrl = voucherCheckUrl(voucher.code);
  return (
    <Card
      className="print-document"
      title={<PageTitle>{t('ordersUi.voucher.title')}</PageTitle>}
      extra={
        <Space className="no-print" wrap>
          <Link to="/data/voucher">{t('ordersUi.voucher.back')}</Link>
          <Button type="primary" onClick={() => window.print()}>
            {t('ordersUi.common.print')}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text strong>{t(`site.${siteVariant()}.title`)}</Typography.Text>
        {!voucher.valid && (
          <Alert
            type="error"
            showIcon
            title={voucher.status === 'expired' && voucher.expires_at ? t('ordersUi.voucher.expired', { date: formatDate(voucher.expires_at) }) : t('ordersUi.voucher.invalid')}
          />
        )}
        <Typography.Paragraph>{t('ordersUi.voucher.statement', { applicant: voucher.applicant, affiliation: voucher.affiliation })}</Typography.Paragraph>
        <ol style={{ paddingInlineStart: 20 }}>
          {voucher.datasets.map((dataset) => {
            const deed = licenseUrl(dataset.license);
            return (
              <li key={dataset.metadata_id} style={{ marginBottom: 16 }}>
                <a href={landingPath(dataset.metadata_id)}>
                  <strong>{datasetTitle(dataset)}</strong>
                </a>
                <Descriptions
                  size="small"
                  column={1}
                  items={[
                    ...(dataset.doi ? [{ key: 'doi', label: 'DOI', children: <a href={`https://doi.org/${dataset.doi}`}>{dataset.doi}</a> }] : []),
                    ...(dataset.citation ? [{ key: 'citation', label: t('ordersUi.voucher.citation'), children: dataset.citation }] : []),
                    ...(dataset.use_term
                      ? [{ key: 'use', label: t('ordersUi.voucher.useTerm'), children: <span style={{ whiteSpace: 'pre-wrap' }}>{dataset.use_term}</span> }]
                      : []),
                    ...(dataset.license ? [{ key: 'license', label: t('ordersUi.voucher.license'), children: deed ? <a href={deed}>{dataset.license}</a> : dataset.license }] : []),
                  ]}
                />
              </li>
            );
          })}
        </ol>
        <Descriptions
          bordered
          size="small"
          column={1}
          {...termsLayout}
          items={[
            { key: 'applicant', label: t('ordersUi.voucher.applicant'), children: `${voucher.applicant} (${voucher.affiliation})` },
            { key: 'approvedBy', label: t('ordersUi.voucher.approvedBy'), children: voucher.approved_by },
            { key: 'approvedAt', label: t('ordersUi.voucher.approvedAt'), children: formatDateTime(voucher.approved_at) },
            { key: 'validity', label: t('ordersUi.voucher.validUntil'), children: voucher.expires_at ? formatDate(voucher.expires_at) : t('ordersUi.voucher.noExpiry') },
            {
              key: 'code',
              label: t('ordersUi.voucher.code'),
              children: (
                <Typography.Text code copyable>
                  {voucher.code}
                </Typography.Text>
              ),
            },
            { key: 'check', label: t('ordersUi.voucher.checkAt'), children: <a href={checkUrl}>{checkUrl}</a> },
          ]}
        />
      </Space>
    </Card>
  );
}
