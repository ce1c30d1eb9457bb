import { Alert, Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RunStatus } from '@portal/shared';

/** A call of these pages that failed, said in words, with a button to ask again. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const retry = <Button onClick={onRetry}>{t('analysisUi.common.retry')}</Button>;
  return <Alert type="error" showIcon title={t('analysisUi.common.loadFailed')} action={retry} />;
}

const STATUS_COLORS: Record<RunStatus, string> = { queued: 'default', running: 'processing', done: 'success', failed: 'error' };

/** A run's state as a tag. */
export function RunStatusTag({ status }: { status: RunStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLORS[status]}>{t(`analysisUi.status.${status}`)}</Tag>;
}
