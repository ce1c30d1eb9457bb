import { Alert, Breadcrumb, Button, Flex, Popconfirm, Space, Table, Typography, Upload, type TableColumnsType, type TableProps } from 'antd';
import { FileOutlined, FolderOutlined, InboxOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileNameProblem, type FileEntry, type FileOrdering } from '@portal/shared';
import { refusal } from '../../../../api/form';
import { path } from '../../../../api/routes';
import { formatBytes, formatCount, formatDateTime } from '../../../../components/format';
import { FtpUploadPanel } from '../../../ftp/FtpUploadPanel';
import { tablesKeys } from '../../../tables/api';
import { ImportAction } from '../../../tables/components/ImportAction';
import type { EditorTabProps } from '../../api';
import { useFeedback } from '../useFeedback';
import { NameDialog } from './NameDialog';
import { crumbsOf, entryPath, TREE_PAGE_SIZE, treeApi } from './treeApi';
import { UploadList } from './UploadList';
import { UPLOADS_AT_ONCE, useUploads } from './useUploads';

type Dialog = { kind: 'folder' | 'file' } | { kind: 'move'; entry: FileEntry };
const SORTED: Record<string, 'name' | 'size' | 'modified'> = { name: 'name', size: 'size', modified: 'modified' };

/**
 * A record's data files as a tree (issue 19, spec section 2's file manager): one folder at a time,
 * paged (20) and sorted by name, size or time, with its count and bytes; new folder, new empty
 * file, rename or move, delete, and resumable uploads (tus) by drop or picker, at most 5 at once;
 * at the root, the FTP upload panel. Read-only, it shows the tree without a control that changes it.
 */
export function FileManager({ record, readOnly }: EditorTabProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [folder, setFolder] = useState('/');
  const [page, setPage] = useState(1);
  const [ordering, setOrdering] = useState<FileOrdering>('name');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [refused, setRefused] = useState<string[]>([]);
  const treeKey = ['metadata', 'tree', record.id];
  const { data, isFetching, error } = useQuery({
    queryKey: [...treeKey, folder, page, ordering],
    queryFn: () => treeApi.list(record.id, folder, page, ordering),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: treeKey });
  const uploads = useUploads(record.id, () => void refresh());
  /** The files of one drop or selection: antd's beforeUpload is called once per file with the whole list. */
  const batch = useRef<readonly File[] | null>(null);

  const open = (next: string) => {
    setFolder(next);
    setPage(1);
  };

  const take = (_file: File, chosen: readonly File[]) => {
    if (batch.current === chosen) return Upload.LIST_IGNORE;
    batch.current = chosen;
    const left = uploads.add([...chosen], folder);
    setRefused(left);
    return Upload.LIST_IGNORE;
  };

  /** Runs a change; undefined when done, else the server's message. */
  const change = async (work: () => Promise<unknown>, done: string): Promise<string | undefined> => {
    try {
      await work();
      message.success(done);
      await refresh();
      return undefined;
    } catch (failure) {
      return refusal(failure, t('errors.formGeneric'));
    }
  };

  const submitDialog = async (value: string): Promise<string | undefined> => {
    if (!dialog) return undefined;
    if (dialog.kind === 'move') {
      const to = value.trim().startsWith('/') ? value.trim() : `${folder}${value.trim()}`;
      return change(() => treeApi.move(record.id, entryPath(dialog.entry), to), t('fileManager.moved'));
    }
    const problem = fileNameProblem(value);
    if (problem) return t(problem);
    return dialog.kind === 'folder'
      ? change(() => treeApi.createFolder(record.id, folder, value), t('fileManager.folderCreated'))
      : change(() => treeApi.newFile(record.id, folder, value), t('fileManager.fileCreated'));
  };

  const remove = async (entry: FileEntry) => {
    const refusedText = await change(() => treeApi.remove(record.id, entry), t('fileManager.deleted'));
    if (refusedText) message.error(refusedText);
    // The tables read from a deleted file went with it (issue 20).
    else await queryClient.invalidateQueries({ queryKey: tablesKeys.all });
  };

  const sortOrder = (column: string) => (ordering === column ? 'ascend' : ordering === `-${column}` ? 'descend' : null);
  const onTable: TableProps<FileEntry>['onChange'] = (pagination, _filters, sorter) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const column = one?.order ? SORTED[String(one.columnKey)] : undefined;
    const next: FileOrdering = column ? (one?.order === 'descend' ? `-${column}` : column) : 'name';
    if (next !== ordering) {
      setOrdering(next);
      setPage(1);
    } else setPage(pagination.current ?? 1);
  };

  const columns: TableColumnsType<FileEntry> = [
    {
      key: 'name',
      title: t('editor.files.name'),
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (_, entry) =>
        entry.is_folder ? (
          <Button
            type="link"
            icon={<FolderOutlined />}
            onClick={() => open(`${entryPath(entry)}/`)}
            style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}
          >
            {entry.name}
          </Button>
        ) : (
          <Space size={6}>
            <FileOutlined aria-hidden />
            <a href={path('fileDownload', { id: entry.id })} style={{ overflowWrap: 'anywhere' }}>
              {entry.name}
            </a>
          </Space>
        ),
    },
    { key: 'size', title: t('editor.files.size'), sorter: true, sortOrder: sortOrder('size'), width: 110, render: (_, entry) => (entry.is_folder ? '' : formatBytes(entry.size)) },
    { key: 'modified', title: t('fileManager.modified'), sorter: true, sortOrder: sortOrder('modified'), width: 190, render: (_, entry) => formatDateTime(entry.modified) },
    {
      key: 'sha256',
      title: 'SHA-256',
      width: 150,
      render: (_, entry) =>
        entry.is_folder ? (
          ''
        ) : (
          <Typography.Text code copyable={{ text: entry.sha256 }} data-testid="sha256" data-sha256={entry.sha256} title={entry.sha256}>
            {entry.sha256.slice(0, 10)}
          </Typography.Text>
        ),
    },
  ];
  if (!readOnly) {
    columns.push({
      key: 'actions',
      title: t('editor.actions'),
      width: 170,
      render: (_, entry) => (
        <Space size={4} wrap>
          {/* An .xlsx or .csv file becomes a table (issue 20). */}
          {!entry.is_folder && <ImportAction metadataId={record.id} file={entry} />}
          <Button size="small" onClick={() => setDialog({ kind: 'move', entry })} aria-label={`${t('fileManager.move')} ${entry.name}`}>
            {t('fileManager.move')}
          </Button>
          <Popconfirm
            title={entry.is_folder ? t('fileManager.deleteFolderConfirm', { name: entry.name }) : t('fileManager.deleteConfirm', { name: entry.name })}
            okText={t('editor.yes')}
            cancelText={t('editor.no')}
            onConfirm={() => remove(entry)}
          >
            <Button size="small" danger aria-label={`${t('editor.delete')} ${entry.name}`}>
              {t('editor.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    });
  }

  const crumbs = crumbsOf(folder);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Breadcrumb
          items={crumbs.map((crumb, at) => ({
            key: crumb.path,
            title:
              at === crumbs.length - 1 ? (
                <span aria-current="location">{crumb.name || t('fileManager.root')}</span>
              ) : (
                <a
                  href={`#${crumb.path}`}
                  onClick={(event) => {
                    event.preventDefault();
                    open(crumb.path);
                  }}
                >
                  {crumb.name || t('fileManager.root')}
                </a>
              ),
          }))}
        />
        <Typography.Text type="secondary" data-testid="folder-summary">
          {t('fileManager.summary', { count: data?.count ?? 0, countText: formatCount(data?.count ?? 0), size: formatBytes(data?.bytes ?? 0) })}
        </Typography.Text>
      </Flex>
      {!readOnly && (
        <Space wrap>
          <Button onClick={() => setDialog({ kind: 'folder' })}>{t('fileManager.newFolder')}</Button>
          <Button onClick={() => setDialog({ kind: 'file' })}>{t('fileManager.newFile')}</Button>
        </Space>
      )}
      {!readOnly && (
        <Upload.Dragger multiple showUploadList={false} beforeUpload={take} customRequest={() => undefined}>
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('editor.files.drop')}</p>
          <p className="ant-upload-hint">{t('fileManager.upload.hint', { max: UPLOADS_AT_ONCE, folder: folder })}</p>
        </Upload.Dragger>
      )}
      {!readOnly && refused.length > 0 && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('fileManager.upload.tooMany', { max: UPLOADS_AT_ONCE })}
          description={t('fileManager.upload.notStarted', { names: refused.join(', ') })}
          closable={{ closeIcon: true, 'aria-label': t('editor.close') }}
          onClose={() => setRefused([])}
        />
      )}
      {!readOnly && <Typography.Text type="secondary">{t('editor.files.compress')}</Typography.Text>}
      <UploadList
        items={uploads.items}
        unfinished={uploads.unfinished}
        onPause={uploads.pause}
        onResume={uploads.resume}
        onCancel={uploads.cancel}
        onForget={(key) => void uploads.forget(key)}
        onClear={uploads.clearDone}
      />
      {error && <Alert type="error" showIcon title={refusal(error, t('errors.formGeneric'))} />}
      <Table<FileEntry>
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={isFetching}
        columns={columns}
        dataSource={data?.results ?? []}
        onChange={onTable}
        pagination={{ current: page, pageSize: TREE_PAGE_SIZE, total: data?.count ?? 0, showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: t('fileManager.empty') }}
      />
      {/* The FTP account panel, at the tree's root only (spec section 6), for those who may change the record. */}
      {!readOnly && folder === '/' && <FtpUploadPanel metadataId={record.id} onSynced={() => void refresh()} />}
      <NameDialog
        open={dialog !== null}
        title={dialog?.kind === 'folder' ? t('fileManager.newFolder') : dialog?.kind === 'file' ? t('fileManager.newFile') : t('fileManager.move')}
        label={dialog?.kind === 'move' ? t('fileManager.moveTo') : t('fileManager.name')}
        initial={dialog?.kind === 'move' ? entryPath(dialog.entry) : ''}
        submit={submitDialog}
        onClose={() => setDialog(null)}
      />
    </Space>
  );
}
