import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { siteVariant } from '../../../app/site';
import { VoucherForm } from './VoucherForm';
import './voucher.css';

/** `/{lang}/voucher/`: where a funder or a journal types the verification code a voucher shows. */
export default function VoucherFormPage() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t('voucherCheck.title')} - ${t(`site.${siteVariant()}.title`)}`;
  }, [t]);
  return (
    <article className="vc" aria-labelledby="vc-title">
      <h1 id="vc-title">{t('voucherCheck.title')}</h1>
      <p>{t('voucherCheck.form.intro')}</p>
      <VoucherForm />
    </article>
  );
}
