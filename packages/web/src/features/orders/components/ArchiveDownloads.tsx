import type { ReactNode } from 'react';
import { Button, Flex, Space, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Archive, OrderIndexLink } from '@portal/shared';
import { api, ApiError, ok } from '../../../api/client';
import { path } from '../../../api/routes';
import { formatBytes, formatCount } from '../../../components/format';
import type { Order } from '../api';
import { datasetTitle } from './common';

/** While an archive is being built its state is asked again this often. */
const POLL_MS = 10_000;

const archiveKey = (metadataId: string) => ['archives', metadataId] as const;

/**
 * An approved order's "download everything" (issue 19): each dataset's whole-dataset archive with its
 * state and size (a zip that resumes), and the order's HTTP index as the wget command that fetches
 * every dataset's folders.
 */
export function ArchiveDownloads({ order }: { order: Order }) {
  const { t } = useTranslation();
  const index = useQuery({
    queryKey: ['orders', 'indexLink', order.id],
    queryFn: async () => ok<OrderIndexLink>(await api.get(path('orderIndexLink', { id: order.id }))),
  });
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid="order-archives">
      <Typography.Text strong>{t('datasetArchive.ui.title')}</Typography.Text>
      <Typography.Text type="secondary">{t('datasetArchive.ui.intro')}</Typography.Text>
      {order.lines.map((line) => (
        <ArchiveLine key={line.metadata_id} metadataId={line.metadata_id} title={datasetTitle(line)} />
      ))}
      {index.data && (
        <>
          <Typography.Text type="secondary">{t('datasetArchive.ui.indexIntro')}</Typography.Text>
          <Typography.Paragraph copyable={{ text: index.data.wget }} style={{ overflowWrap: 'anywhere', marginBottom: 0 }} data-testid="order-index-wget">
            <Typography.Text code>{index.data.wget}</Typography.Text>
          </Typography.Paragraph>
        </>
      )}
    </Space>
  );
}

function ArchiveLine({ metadataId, title }: { metadataId: string; title: string }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: archiveKey(metadataId),
    queryFn: async () => ok<Archive>(await api.get(path('archive', { id: metadataId }))),
    // Asked again while it is built; a failure is the server's answer, shown as it is.
    refetchInterval: (current) => (current.state.data?.state === 'pending' || current.state.data?.state === 'building' ? POLL_MS : false),
    retry: false,
  });
  const archive = query.data;
  let state: ReactNode = null;
  if (query.isError) {
    state = (
      <Typography.Text type="warning">{query.error instanceof ApiError && query.error.status < 500 ? query.error.message : t('datasetArchive.ui.unavailable')}</Typography.Text>
    );
  } else if (archive?.state === 'ready' && archive.download_url) {
    const size = formatBytes(archive.size ?? 0);
    state = (
      <Button
        type="primary"
        icon={<DownloadOutlined />}
        href={archive.download_url}
        aria-label={t('datasetArchive.ui.downloadFor', { title, size })}
        data-testid="archive-download"
      >
        {t('datasetArchive.ui.download', { size })}
      </Button>
    );
  } else if (archive?.state === 'pending' || archive?.state === 'building') {
    state = <Typography.Text type="secondary">{t('datasetArchive.ui.preparing')}</Typography.Text>;
  } else if (archive) {
    state = <Typography.Text type="warning">{archive.detail}</Typography.Text>;
  }
  return (
    <Flex wrap gap={8} align="center" justify="space-between" data-testid="archive-line" data-state={archive?.state ?? (query.isError ? 'error' : 'loading')}>
      <Space orientation="vertical" size={0} style={{ minWidth: 0 }}>
        <span style={{ overflowWrap: 'anywhere' }}>{title}</span>
        {archive && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('datasetArchive.ui.files', { n: formatCount(archive.file_count), size: formatBytes(archive.data_bytes) })}
          </Typography.Text>
        )}
      </Space>
      {state}
    </Flex>
  );
}
