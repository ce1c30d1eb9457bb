import { Alert, Button, Flex, List, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../../components/format';
import { formatDuration, secondsLeft } from './progress';
import type { Unfinished, UploadItem } from './useUploads';

const STATUS = { uploading: 'active', paused: 'normal', offline: 'normal', done: 'success', failed: 'exception' } as const;

/** One line of an upload: its bytes, speed and time left, or why it stopped. */
function UploadLine({ item }: { item: UploadItem }) {
  const { t } = useTranslation();
  const bytes = t('fileManager.upload.bytes', { sent: formatBytes(item.sent), total: formatBytes(item.total) });
  if (item.state === 'failed') return <Typography.Text type="danger">{item.error}</Typography.Text>;
  if (item.state === 'done') return <Typography.Text type="success">{t('fileManager.upload.done', { size: formatBytes(item.total) })}</Typography.Text>;
  if (item.state === 'offline') return <Typography.Text type="warning">{`${bytes} · ${t('fileManager.upload.offline')}`}</Typography.Text>;
  if (item.state === 'paused') return <Typography.Text type="secondary">{`${bytes} · ${t('fileManager.upload.paused')}`}</Typography.Text>;
  const left = secondsLeft(item.sent, item.total, item.speed);
  const speed = item.speed > 0 ? t('fileManager.upload.speed', { speed: formatBytes(item.speed) }) : t('fileManager.upload.starting');
  return (
    <Typography.Text type="secondary">
      {[bytes, speed, left === undefined ? '' : t('fileManager.upload.left', { time: formatDuration(left) })].filter(Boolean).join(' · ')}
    </Typography.Text>
  );
}

/** The uploads of this visit, each with its progress and its pause, resume and cancel; and those left from an earlier visit. */
export function UploadList({
  items,
  unfinished,
  onPause,
  onResume,
  onCancel,
  onForget,
  onClear,
}: {
  items: UploadItem[];
  unfinished: Unfinished[];
  onPause: (key: string) => void;
  onResume: (key: string) => void;
  onCancel: (key: string) => void;
  onForget: (key: string) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const running = new Set(items.map((item) => `${item.folder}${item.name}`));
  const left = unfinished.filter((upload) => !running.has(`${upload.folder}${upload.name}`));
  return (
    <>
      {left.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('fileManager.upload.unfinished')}
          description={
            <List
              size="small"
              dataSource={left}
              renderItem={(upload) => (
                <List.Item
                  actions={[
                    <Button key="forget" size="small" type="link" onClick={() => onForget(upload.key)}>
                      {t('fileManager.upload.forget')}
                    </Button>,
                  ]}
                >
                  <Typography.Text style={{ overflowWrap: 'anywhere' }}>{`${upload.folder}${upload.name} (${formatBytes(upload.size)})`}</Typography.Text>
                </List.Item>
              )}
            />
          }
        />
      )}
      {items.length > 0 && (
        <List
          data-testid="uploads"
          size="small"
          bordered
          header={
            <Flex justify="space-between" align="center" wrap gap={8}>
              <Typography.Text strong>{t('fileManager.upload.title')}</Typography.Text>
              {items.some((item) => item.state === 'done') && (
                <Button size="small" onClick={onClear}>
                  {t('fileManager.upload.clear')}
                </Button>
              )}
            </Flex>
          }
          dataSource={items}
          renderItem={(item) => (
            <List.Item data-testid="upload-item" data-state={item.state} data-sent={item.sent}>
              <Space orientation="vertical" size={2} style={{ width: '100%', minWidth: 0 }}>
                <Flex justify="space-between" align="center" wrap gap={8}>
                  <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>{`${item.folder}${item.name}`}</Typography.Text>
                  <Space size={4} wrap>
                    {item.state === 'uploading' && (
                      <Button size="small" onClick={() => onPause(item.key)}>
                        {t('fileManager.upload.pause')}
                      </Button>
                    )}
                    {(item.state === 'paused' || item.state === 'failed') && (
                      <Button size="small" onClick={() => onResume(item.key)}>
                        {t('fileManager.upload.resume')}
                      </Button>
                    )}
                    {item.state !== 'done' && (
                      <Button size="small" danger onClick={() => onCancel(item.key)}>
                        {t('fileManager.upload.cancel')}
                      </Button>
                    )}
                  </Space>
                </Flex>
                <Progress percent={item.total ? Math.floor((item.sent * 100) / item.total) : item.state === 'done' ? 100 : 0} status={STATUS[item.state]} size="small" />
                <UploadLine item={item} />
              </Space>
            </List.Item>
          )}
        />
      )}
    </>
  );
}
