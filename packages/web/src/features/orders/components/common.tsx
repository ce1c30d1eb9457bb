import { Descriptions, Space, Tag, Typography, type DescriptionsProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName, effectiveOrderStatus, type OrderStatus } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { sitePath } from '../../../app/site';
import { formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import type { Order } from '../api';

/** A dataset's title in the page's language: the English title on English pages when it has one. */
export function datasetTitle(dataset: { title: string; title_en: string }): string {
  return (pageLanguage === 'en' && dataset.title_en) || dataset.title || dataset.title_en;
}

/** A dataset's public landing page (the public site, a full page load). */
export const landingPath = (metadataId: string) => sitePath(`/data/${metadataId}/`);

const STATUS_COLORS: Record<OrderStatus, string> = {
  waiting: 'processing',
  approved: 'success',
  rejected: 'error',
  returned: 'warning',
  deleted: 'default',
  expired: 'default',
};

/** The state the reader sees (an approved order past its expiry reads as expired). */
export const statusOf = (order: Pick<Order, 'status' | 'expires_at'>): OrderStatus => effectiveOrderStatus(order);

/** An order's state in the words of spec section 8. */
export function StatusTag({ order }: { order: Pick<Order, 'status' | 'expires_at'> }) {
  const { t } = useTranslation();
  const status = statusOf(order);
  return <Tag color={STATUS_COLORS[status]}>{t(`orders.status.${status}`)}</Tag>;
}

/** The datasets of an order, each a link to its landing page. */
export function DatasetLinks({ lines, showDoi = false }: { lines: Order['lines']; showDoi?: boolean }) {
  return (
    <Space orientation="vertical" size={2}>
      {lines.map((line) => (
        <span key={line.metadata_id}>
          <a href={landingPath(line.metadata_id)}>{datasetTitle(line)}</a>
          {showDoi && line.doi && (
            <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
              DOI: {line.doi}
            </Typography.Text>
          )}
        </span>
      ))}
    </Space>
  );
}

/**
 * How a bordered list of terms is laid out: beside its value on a wide screen, the term kept on
 * one line; above it on a phone, where a long value (an e-mail address, a link in the reason)
 * squeezed the term column to a character a line (issue 16).
 */
export function useTermsLayout(): Pick<DescriptionsProps, 'layout' | 'styles'> {
  const isPhone = useIsPhone();
  return isPhone ? { layout: 'vertical', styles: { label: { paddingBlock: 4 } } } : { layout: 'horizontal', styles: { label: { whiteSpace: 'nowrap' } } };
}

/** The applicant's form as the handler (or the applicant) reads it. */
export function ApplicationDetails({ order, extra = [] }: { order: Order; extra?: { key: string; label: string; children: ReactNode }[] }) {
  const { t } = useTranslation();
  const termsLayout = useTermsLayout();
  const form = order.application;
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      {...termsLayout}
      items={[
        { key: 'realName', label: t('ordersUi.form.realName'), children: form.realName },
        { key: 'affiliation', label: t('ordersUi.form.affiliation'), children: form.affiliation },
        { key: 'country', label: t('ordersUi.form.country'), children: form.country ? countryName(form.country, pageLanguage) : '' },
        {
          key: 'email',
          label: t('ordersUi.form.email'),
          children: (
            <a href={`mailto:${form.email}`} style={{ overflowWrap: 'anywhere' }}>
              {form.email}
            </a>
          ),
        },
        { key: 'phone', label: t('ordersUi.form.phone'), children: form.phone },
        { key: 'address', label: t('ordersUi.form.address'), children: form.address },
        { key: 'zipcode', label: t('ordersUi.form.zipcode'), children: form.zipcode },
        { key: 'reason', label: t('ordersUi.form.reason'), children: <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{form.reason}</span> },
        { key: 'created', label: t('ordersUi.common.appliedAt'), children: formatDateTime(order.created_at) },
        ...extra,
      ]}
    />
  );
}

/** The page's heading, as the other personal-centre pages write it. */
export function PageTitle({ children }: { children: ReactNode }) {
  return <h1 style={{ margin: 0, fontSize: 20 }}>{children}</h1>;
}
