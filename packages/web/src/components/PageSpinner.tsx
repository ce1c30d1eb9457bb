import { useTranslation } from 'react-i18next';

/** While a page or its data loads: a turning ring, announced as "Loading…". */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div className="page-spinner" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
