import { Alert, App, Button, Card, Flex, Popconfirm, Space, Table, Typography, type TableColumnsType } from 'antd';
import { CloudUploadOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusal } from '../../api/form';
import { formatBytes, formatCount, formatDateTime } from '../../components/format';
import { ftpApi, ftpKeys, type FtpAccount, type NewFtpAccount, type FtpSyncReply } from './api';
import { uploadCommands } from './commands';
import { CommandLine, FtpDetails, WRAP } from './FtpDetails';

/**
 * The file manager's FTP panel (issue 19; spec section 6: at the tree's root only), for those who may
 * change the record: its upload accounts (made with the password shown once, listed, deleted), the
 * sync that brings what arrived into the tree, and the lftp / curl lines for the newest account.
 */
export function FtpUploadPanel({ metadataId, onSynced }: { metadataId: string; onSynced: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const key = ftpKeys.uploads(metadataId);
  const accounts = useQuery({ queryKey: key, queryFn: () => ftpApi.uploadAccounts(metadataId), retry: false });
  const [created, setCreated] = useState<NewFtpAccount | null>(null);
  const [synced, setSynced] = useState<FtpSyncReply | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<'create' | 'sync' | null>(null);

  /** Runs a call; its refusal is shown as the server words it. */
  const attempt = async <T,>(kind: 'create' | 'sync' | null, work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(kind);
    setFailure(null);
    try {
      return await work();
    } catch (error) {
      setFailure(refusal(error, t('errors.formGeneric')));
      return undefined;
    } finally {
      setBusy(null);
    }
  };

  const create = async () => {
    const account = await attempt('create', () => ftpApi.createUpload(metadataId));
    if (!account) return;
    setCreated(account);
    message.success(t('ftpUi.upload.created'));
    await queryClient.invalidateQueries({ queryKey: key });
  };

  const remove = async (account: FtpAccount) => {
    if ((await attempt(null, () => ftpApi.removeUpload(account.id).then(() => true))) !== true) return;
    if (created?.id === account.id) setCreated(null);
    message.success(t('ftpUi.upload.deleted'));
    await queryClient.invalidateQueries({ queryKey: key });
  };

  const sync = async () => {
    const reply = await attempt('sync', () => ftpApi.sync(metadataId));
    if (!reply) return;
    setSynced(reply);
    if (reply.count > 0) onSynced();
  };

  const list = accounts.data ?? [];
  const newest = created ?? list.at(-1);
  const commands = newest ? uploadCommands(newest) : null;
  const columns: TableColumnsType<FtpAccount> = [
    { key: 'username', title: t('ftpUi.username'), render: (_, account) => <Typography.Text code>{account.username}</Typography.Text> },
    { key: 'host', title: `${t('ftpUi.host')}:${t('ftpUi.port')}`, render: (_, account) => `${account.host}:${account.port}` },
    { key: 'created', title: t('ftpUi.created'), render: (_, account) => formatDateTime(account.created_at) },
    { key: 'expires', title: t('ftpUi.expires'), render: (_, account) => (account.expires_at ? formatDateTime(account.expires_at) : t('ftpUi.whileDraft')) },
    {
      key: 'actions',
      title: t('editor.actions'),
      render: (_, account) => (
        <Popconfirm title={t('ftpUi.upload.deleteConfirm', { username: account.username })} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => remove(account)}>
          <Button size="small" danger aria-label={t('ftpUi.upload.deleteLabel', { username: account.username })}>
            {t('editor.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card size="small" title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('ftpUi.upload.title')}</h2>} data-testid="ftp-upload-panel">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('ftpUi.upload.intro')}</Typography.Text>
        <Flex wrap gap={8} align="center">
          <Button icon={<CloudUploadOutlined />} loading={busy === 'create'} onClick={() => void create()}>
            {t('ftpUi.upload.create')}
          </Button>
          <Button icon={<SyncOutlined />} loading={busy === 'sync'} onClick={() => void sync()}>
            {t('ftpUi.upload.sync')}
          </Button>
        </Flex>
        <Typography.Text type="secondary">{t('ftpUi.upload.replaces')}</Typography.Text>
        {failure && <Alert type="error" showIcon role="alert" title={failure} closable={{ closeIcon: true, 'aria-label': t('editor.close') }} onClose={() => setFailure(null)} />}
        {created && (
          <div data-testid="ftp-created">
            <FtpDetails account={created} password={created.password} />
            <Button size="small" style={{ marginTop: 8 }} onClick={() => setCreated(null)}>
              {t('editor.close')}
            </Button>
          </div>
        )}
        {synced && <SyncResult reply={synced} onClose={() => setSynced(null)} />}
        {accounts.error ? (
          <Alert type="error" showIcon title={refusal(accounts.error, t('errors.formGeneric'))} />
        ) : (
          <Table<FtpAccount>
            rowKey="id"
            size="small"
            scroll={{ x: 'max-content' }}
            loading={accounts.isLoading}
            columns={columns}
            dataSource={list}
            pagination={false}
            title={() => t('ftpUi.upload.accounts')}
            locale={{ emptyText: t('ftpUi.upload.none') }}
          />
        )}
        {commands && (
          <Space orientation="vertical" size={4} style={{ width: '100%' }}>
            <CommandLine label={t('ftpUi.upload.mirrorHelp')} command={commands.mirror} testId="ftp-mirror-command" />
            <CommandLine label={t('ftpUi.upload.fileHelp')} command={commands.file} testId="ftp-file-command" />
          </Space>
        )}
      </Space>
    </Card>
  );
}

/** Files a sync result names one by one; the rest are counted. */
const SHOWN = 20;

function More({ total }: { total: number }) {
  const { t } = useTranslation();
  return total > SHOWN ? <li>{t('ftpUi.upload.more', { count: total - SHOWN, countText: formatCount(total - SHOWN) })}</li> : null;
}

/** What a sync brought in (count and bytes) and what the tree refused, each with the server's reason. */
function SyncResult({ reply, onClose }: { reply: FtpSyncReply; onClose: () => void }) {
  const { t } = useTranslation();
  const added = reply.count ? t('ftpUi.upload.synced', { count: reply.count, countText: formatCount(reply.count), size: formatBytes(reply.bytes) }) : t('ftpUi.upload.syncedNone');
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }} data-testid="ftp-sync-result" aria-live="polite">
      <Alert
        type={reply.count ? 'success' : 'info'}
        showIcon
        title={added}
        description={
          reply.files.length > 0 && (
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {reply.files.slice(0, SHOWN).map((file) => (
                <li key={file.path} style={WRAP}>
                  {file.path} ({formatBytes(file.size)})
                </li>
              ))}
              <More total={reply.files.length} />
            </ul>
          )
        }
        closable={{ closeIcon: true, 'aria-label': t('editor.close') }}
        onClose={onClose}
      />
      {reply.refused.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('ftpUi.upload.refused')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {reply.refused.slice(0, SHOWN).map((file) => (
                <li key={file.path} style={WRAP}>
                  {t('ftpUi.upload.refusedFile', { path: file.path, reason: file.detail })}
                </li>
              ))}
              <More total={reply.refused.length} />
            </ul>
          }
        />
      )}
    </Space>
  );
}
