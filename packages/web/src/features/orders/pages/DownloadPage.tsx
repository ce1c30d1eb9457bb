import { Alert, Button, Card, Input, Modal, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DEFAULT_PAGE_SIZE, ORDER_LIMITS } from '@portal/shared';
import { formatBytes, formatDate, formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { ApiError } from '../../metadata/api';
import { useFeedback } from '../../metadata/components/useFeedback';
import { FILE_PAGE_SIZE, fileDownloadUrl, ordersApi, ordersKeys, zipDownloadUrl, type Downloadable, type StoredFile } from '../api';
import { datasetTitle, landingPath, PageTitle } from '../components/common';
import { LoadFailed } from './BasketPage';
import { checkSelection } from '../selection';
import { tablePagination } from '../../../components/table-pagination';
import { FtpDownloadAccount } from '../../ftp/FtpDownloadAccount';

/**
 * /data/downloadData: the datasets the caller may download now, each opened into its files (20 a
 * page); the selected files download as one file or one zip, a plain navigation the browser saves.
 * Per order, the signed links of every file for `wget -i`; per dataset, an FTP account (issue 19).
 */
export default function DownloadPage() {
  const { message, t } = useFeedback();
  const isPhone = useIsPhone();
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [selected, setSelected] = useState<Map<string, StoredFile>>(new Map());
  const [linksOf, setLinksOf] = useState<string | null>(null);
  const { data, isLoading, isError, refetch } = useQuery({ queryKey: ordersKeys.downloadable(paging), queryFn: () => ordersApi.downloadable(paging) });
  const files = [...selected.values()];
  const bytes = files.reduce((sum, file) => sum + file.size, 0);

  const download = () => {
    const problem = checkSelection(files);
    if (problem) return void message.warning(t(`orders.${problem}`));
    location.assign(files.length === 1 ? fileDownloadUrl(files[0]!.id) : zipDownloadUrl(files.map((file) => file.id)));
  };

  const select = (pageFiles: StoredFile[], keys: string[]) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const file of pageFiles) next.delete(file.id);
      for (const file of pageFiles) if (keys.includes(file.id)) next.set(file.id, file);
      return next;
    });

  /** A dataset's ways beside the files: its order's signed links, an FTP account (on a phone under its title). */
  const rowActions = (row: Downloadable) => (
    <Space wrap size={8}>
      {row.order && (
        <Button size="small" onClick={() => setLinksOf(row.order)}>
          {t('ordersUi.download.links')}
        </Button>
      )}
      <FtpDownloadAccount size="small" metadataId={row.metadata_id} title={datasetTitle(row)} />
    </Space>
  );

  const columns: TableColumnsType<Downloadable> = [
    {
      title: t('ordersUi.common.dataset'),
      key: 'title',
      render: (_, row) => (
        <Space orientation="vertical" size={2}>
          <a href={landingPath(row.metadata_id)}>{datasetTitle(row)}</a>
          <Typography.Text type="secondary">
            {t('ordersUi.download.files', { count: row.file_count, size: formatBytes(row.total_size) })}
            {row.expires_at && ` · ${t('ordersUi.common.expiresAt')}: ${formatDate(row.expires_at)}`}
          </Typography.Text>
          {isPhone && rowActions(row)}
        </Space>
      ),
    },
    {
      title: t('ordersUi.basket.shareType'),
      dataIndex: 'sharing_policy',
      width: 220,
      responsive: ['md'],
      render: (policy: string) => t(`metadata.options.sharingPolicy.${policy}`, { defaultValue: policy }),
    },
    {
      title: t('ordersUi.common.actions'),
      key: 'actions',
      width: 240,
      responsive: ['md'],
      render: (_, row) => rowActions(row),
    },
  ];

  return (
    <Card title={<PageTitle>{t('ordersUi.download.title')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('ordersUi.download.intro', { files: ORDER_LIMITS.downloadFilesMax })}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={download}>
          {t('ordersUi.download.download', { count: files.length })}
        </Button>
        <Typography.Text aria-live="polite">{t('ordersUi.download.selected', { count: files.length, size: formatBytes(bytes) })}</Typography.Text>
        {files.length > 0 && <Button onClick={() => setSelected(new Map())}>{t('ordersUi.download.clear')}</Button>}
      </Space>
      {isError ? (
        <LoadFailed onRetry={() => void refetch()} />
      ) : (
        <Table<Downloadable>
          rowKey="metadata_id"
          loading={isLoading}
          columns={columns}
          dataSource={data?.results ?? []}
          locale={{ emptyText: t('ordersUi.download.empty') }}
          expandable={{
            expandedRowRender: (row) => <FileTable metadataId={row.metadata_id} selected={selected} onSelect={select} />,
          }}
          pagination={tablePagination(data?.count, paging, setPaging)}
        />
      )}
      <LinksModal orderId={linksOf} onClose={() => setLinksOf(null)} />
    </Card>
  );
}

/** One dataset's files, a page of 20 at a time, each selectable. */
function FileTable({ metadataId, selected, onSelect }: { metadataId: string; selected: Map<string, StoredFile>; onSelect: (pageFiles: StoredFile[], keys: string[]) => void }) {
  const { t } = useFeedback();
  const [page, setPage] = useState(1);
  const { data, isLoading, isError, refetch } = useQuery({ queryKey: ordersKeys.files(metadataId, page), queryFn: () => ordersApi.files(metadataId, page) });
  const pageFiles = data?.results ?? [];
  if (isError) return <LoadFailed onRetry={() => void refetch()} />;
  return (
    <Table<StoredFile>
      rowKey="id"
      size="small"
      loading={isLoading}
      dataSource={pageFiles}
      locale={{ emptyText: t('ordersUi.download.noFiles') }}
      rowSelection={{
        selectedRowKeys: pageFiles.filter((file) => selected.has(file.id)).map((file) => file.id),
        onChange: (keys) => onSelect(pageFiles, keys as string[]),
        getCheckboxProps: (file) => ({ 'aria-label': file.name }),
      }}
      columns={[
        { title: t('ordersUi.download.name'), dataIndex: 'name', render: (name: string, file) => <a href={fileDownloadUrl(file.id)}>{name}</a> },
        { title: t('ordersUi.download.size'), dataIndex: 'size', width: 110, render: (size: number) => formatBytes(size) },
        { title: t('ordersUi.download.created'), dataIndex: 'created_at', width: 190, responsive: ['md'], render: (value: string) => formatDateTime(value) },
      ]}
      pagination={{ current: page, pageSize: FILE_PAGE_SIZE, total: data?.count ?? 0, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false }}
    />
  );
}

const WGET = 'wget -c -i links.txt';

/** An order's signed links for a download manager: the list to save as links.txt and the command that reads it. */
function LinksModal({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const { t } = useFeedback();
  const [url, setUrl] = useState<string>();
  const links = useQuery({ queryKey: ['orders', 'links', orderId], queryFn: () => ordersApi.links(orderId!), enabled: Boolean(orderId), gcTime: 0, staleTime: 0 });
  useEffect(() => {
    if (!links.data) return;
    const address = URL.createObjectURL(new Blob([links.data], { type: 'text/plain' }));
    setUrl(address);
    return () => URL.revokeObjectURL(address);
  }, [links.data]);
  const error = links.error instanceof ApiError ? links.error.message : links.error ? t('errors.formGeneric') : undefined;
  return (
    <Modal open={Boolean(orderId)} title={t('ordersUi.download.links')} onCancel={onClose} footer={null} width={720}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>{t('ordersUi.download.linksIntro')}</Typography.Paragraph>
        {error && <Alert type="error" showIcon title={error.startsWith('HTTP') ? t('errors.formGeneric') : error} />}
        <Input.TextArea readOnly value={links.data ?? ''} autoSize={{ minRows: 4, maxRows: 12 }} aria-label={t('ordersUi.download.links')} style={{ fontFamily: 'monospace' }} />
        {url && (
          <a href={url} download="links.txt">
            {t('ordersUi.download.saveLinks')}
          </a>
        )}
        <Typography.Text>{t('ordersUi.download.command')}</Typography.Text>
        <Typography.Text code copyable={{ text: WGET }}>
          {WGET}
        </Typography.Text>
      </Space>
    </Modal>
  );
}
