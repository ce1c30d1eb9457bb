import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/** A call that failed, in words, with a button to ask again. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={t('statistics.loadFailed')}
      action={
        <Button size="small" onClick={onRetry}>
          {t('statistics.retry')}
        </Button>
      }
    />
  );
}
