import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** A menu page whose feature this release does not have yet: said plainly, nothing invented. */
export default function UnavailablePage({ labelKey }: { labelKey: string }) {
  const { t } = useTranslation();
  return <Result status="info" title={t(labelKey)} subTitle={t('menu.unavailable')} />;
}
