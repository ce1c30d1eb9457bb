import { Alert, Button, Popconfirm, Space, Table, Typography, Upload, type TableColumnsType } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { METADATA_LIMITS } from '@portal/shared';
import { path } from '../../../api/routes';
import { formatDateTime } from '../../../components/format';
import { deleteStored, resource, uploadFile, type EditorTabProps, type StoredFile } from '../api';
import { RecordTables } from '../../tables/components/RecordTables';
import { FileManager } from './files/FileManager';
import { useFeedback } from './useFeedback';

const KINDS = {
  data: {
    list: 'meta-file',
    upload: path('uploadDataFile'),
    max: METADATA_LIMITS.dataFilesMax,
    maxBytes: METADATA_LIMITS.dataFileMaxBytes,
    hint: 'editor.files.dataHint',
    tooMany: 'metadata.files.tooMany',
  },
  document: {
    list: 'meta-attach',
    upload: path('uploadAttachment'),
    max: METADATA_LIMITS.attachmentsMax,
    maxBytes: METADATA_LIMITS.attachmentMaxBytes,
    hint: 'editor.files.documentHint',
    tooMany: 'metadata.files.tooManyAttachments',
  },
} as const;

/** The specification documents the server takes, by extension (files.service.ts DOCUMENT_TYPES). */
const DOCUMENT_ACCEPT = '.pdf,.doc,.docx,.odt,.rtf,.txt,.md,.xls,.xlsx,.ods,.csv';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Data Files: the record's file tree (issue 19, files/FileManager.tsx) and its tables (issue 20); Documents: specification documents only, a flat list. */
export function FilesTab({ record, readOnly, kind }: EditorTabProps & { kind: keyof typeof KINDS }) {
  if (kind !== 'data') return <StoredFilesTab record={record} readOnly={readOnly} kind={kind} />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <FileManager record={record} readOnly={readOnly} />
      <RecordTables metadataId={record.id} readOnly={readOnly} />
    </Space>
  );
}

/** Documents (specification documents only, spec section 5), each uploaded in one request. */
function StoredFilesTab({ record, readOnly, kind }: EditorTabProps & { kind: keyof typeof KINDS }) {
  const { message, t } = useFeedback();
  const queryClient = useQueryClient();
  const def = KINDS[kind];
  const key = ['metadata', def.list, record.id];
  const { data, isLoading } = useQuery({ queryKey: key, queryFn: () => resource.list<StoredFile>(def.list, { metadata__id: record.id }) });
  const files = data?.results ?? [];
  const [uploading, setUploading] = useState(0);
  /** Files accepted in this selection, counted against the limit before the list catches up. */
  const pending = useRef(0);
  /**
   * Files of a selection or drop that were not uploaded, with why: shown at the drop zone until the
   * next selection (a sixth file of a drop of six was dropped with no more than a passing toast).
   */
  const [refused, setRefused] = useState<{ name: string; reason: string }[]>([]);
  /** The selection the refusals belong to: a new one starts a new list. */
  const selection = useRef<readonly File[] | null>(null);

  const check = (file: File, chosen: readonly File[]) => {
    if (selection.current !== chosen) {
      selection.current = chosen;
      setRefused([]);
    }
    const refuse = (reason: string) => {
      setRefused((list) => [...list, { name: file.name, reason }]);
      return false;
    };
    if (file.size > def.maxBytes) return refuse(t('metadata.files.tooBig', { limit: formatSize(def.maxBytes) }));
    if (files.length + pending.current >= def.max) return refuse(t(def.tooMany, { max: def.max }));
    pending.current += 1;
    return true;
  };

  const upload = async (file: File) => {
    setUploading((n) => n + 1);
    try {
      await uploadFile(def.upload, record.id, file);
      message.success(t('metadata.files.uploaded'));
    } catch (error) {
      // One message: the server's, else the editor's own.
      message.error(error instanceof Error && error.message ? error.message : t('metadata.files.uploadFailed'));
    }
    await queryClient.invalidateQueries({ queryKey: key });
    pending.current -= 1;
    setUploading((n) => n - 1);
  };

  const remove = async (id: string) => {
    if (await deleteStored(def.list, id)) message.success(t('editor.files.deleted'));
    else message.error(t('metadata.files.deleteFailed'));
    await queryClient.invalidateQueries({ queryKey: key });
  };

  const columns: TableColumnsType<StoredFile> = [
    {
      title: t('editor.files.name'),
      dataIndex: 'name',
      render: (name: string, file) => <a href={path('resourceDownload', { name: def.list, id: file.id })}>{name}</a>,
    },
    { title: t('editor.files.size'), dataIndex: 'size', width: 120, render: (size: number) => formatSize(size ?? 0) },
    { title: t('editor.files.uploadedAt'), dataIndex: 'created_at', width: 200, render: (value: string) => formatDateTime(value) },
  ];
  if (!readOnly) {
    columns.push({
      title: t('editor.actions'),
      key: 'actions',
      width: 120,
      render: (_, file) => (
        <Popconfirm title={t('editor.removeConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => remove(file.id)}>
          <Button size="small" danger aria-label={`${t('editor.delete')} ${file.name ?? ''}`}>
            {t('editor.delete')}
          </Button>
        </Popconfirm>
      ),
    });
  }

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {!readOnly && (
        <Upload.Dragger
          accept={kind === 'document' ? DOCUMENT_ACCEPT : undefined}
          multiple={kind === 'data'}
          showUploadList={false}
          disabled={uploading > 0}
          beforeUpload={(file, chosen) => (check(file, chosen) ? true : Upload.LIST_IGNORE)}
          customRequest={({ file }) => void upload(file as File)}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('editor.files.drop')}</p>
          <p className="ant-upload-hint">{t(def.hint, { max: def.max, size: formatSize(def.maxBytes) })}</p>
        </Upload.Dragger>
      )}
      {!readOnly && refused.length > 0 && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('editor.files.notUploaded', { count: refused.length })}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {refused.map((file) => (
                <li key={`${file.name}:${file.reason}`}>{t('editor.files.refusedFile', { name: file.name, reason: file.reason })}</li>
              ))}
            </ul>
          }
          closable={{ closeIcon: true, 'aria-label': t('editor.close') }}
          onClose={() => setRefused([])}
        />
      )}
      {kind === 'data' && !readOnly && <Typography.Text type="secondary">{t('editor.files.compress')}</Typography.Text>}
      <Table<StoredFile>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={isLoading || uploading > 0}
        columns={columns}
        dataSource={files}
        pagination={false}
        locale={{ emptyText: t('editor.none') }}
      />
    </Space>
  );
}
