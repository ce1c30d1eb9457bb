import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { licenseUrl } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { siteVariant } from '../../../app/site';
import { formatDate, formatDateTime } from '../../../components/format';
import { PageSpinner } from '../../../components/PageSpinner';
import { useVoucherCheck } from './api';
import { VoucherForm } from './VoucherForm';
import './voucher.css';

/**
 * `/{lang}/voucher/:code`: anyone checks a download voucher's verification code (a funder, a journal):
 * who was granted which datasets, by whom and when, and whether it still holds.
 */
export default function VoucherCheckPage() {
  const { code = '' } = useParams();
  const { t } = useTranslation();
  const check = useVoucherCheck(code);
  useEffect(() => {
    document.title = `${t('voucherCheck.title')} - ${t(`site.${siteVariant()}.title`)}`;
  }, [t]);

  if (check.isPending) return <PageSpinner />;
  if (check.isError) {
    return (
      <div className="result" role="alert">
        <p>{t('voucherCheck.loadFailed')}</p>
        <button type="button" className="button" onClick={() => void check.refetch()}>
          {t('voucherCheck.retry')}
        </button>
      </div>
    );
  }
  if (!check.data.found) {
    return (
      <div className="result vc" role="alert">
        <h1>{t('voucherCheck.title')}</h1>
        <p>{t('voucherCheck.notFound', { code })}</p>
        <VoucherForm initial={code} />
      </div>
    );
  }
  const { voucher } = check.data;
  return (
    <article className="vc" aria-labelledby="vc-title">
      <h1 id="vc-title">{t('voucherCheck.title')}</h1>
      <p className={voucher.valid ? 'vc-verdict vc-valid' : 'vc-verdict vc-invalid'} role="status">
        {voucher.valid
          ? t('voucherCheck.valid', { code: voucher.code })
          : voucher.status === 'expired' && voucher.expires_at
            ? t('voucherCheck.expired', { code: voucher.code, date: formatDate(voucher.expires_at) })
            : t('voucherCheck.invalid', { code: voucher.code })}
      </p>
      <dl className="vc-terms">
        <dt>{t('voucherCheck.applicant')}</dt>
        <dd>
          {voucher.applicant} ({voucher.affiliation})
        </dd>
        <dt>{t('voucherCheck.approvedBy')}</dt>
        <dd>{voucher.approved_by}</dd>
        <dt>{t('voucherCheck.approvedAt')}</dt>
        <dd>{formatDateTime(voucher.approved_at)}</dd>
        <dt>{t('voucherCheck.validUntil')}</dt>
        <dd>{voucher.expires_at ? formatDate(voucher.expires_at) : t('voucherCheck.noExpiry')}</dd>
      </dl>
      <h2>{t('voucherCheck.datasets')}</h2>
      <ol className="vc-datasets">
        {voucher.datasets.map((dataset) => {
          const deed = licenseUrl(dataset.license);
          return (
            <li key={dataset.metadata_id}>
              <Link to={`/data/${dataset.metadata_id}/`}>{(pageLanguage === 'en' && dataset.title_en) || dataset.title}</Link>
              {dataset.doi && (
                <div>
                  DOI: <a href={`https://doi.org/${dataset.doi}`}>{dataset.doi}</a>
                </div>
              )}
              {dataset.citation && (
                <div>
                  {t('voucherCheck.citation')}: {dataset.citation}
                </div>
              )}
              {dataset.license && (
                <div>
                  {t('voucherCheck.license')}: {deed ? <a href={deed}>{dataset.license}</a> : dataset.license}
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <p>
        <Link to="/voucher/">{t('voucherCheck.form.another')}</Link>
      </p>
    </article>
  );
}
