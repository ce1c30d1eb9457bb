import { Alert, App, Button, Modal, Popconfirm, Space, Spin, Typography } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { refusal } from '../../api/form';
import { ftpApi, ftpKeys, type FtpAccount, type NewFtpAccount } from './api';
import { downloadCommands } from './commands';
import { CommandLine, FtpDetails } from './FtpDetails';

/**
 * "Get an FTP account" for a dataset the caller may download (issue 19): the caller's one download
 * account on the record, shown by `/data/ftpinfo/` when it exists, else made by `/data/download-user/`
 * with its password shown once; host, port, user, expiry and the curl, wget -r and lftp lines.
 * The server decides who may (the download rule); its refusals are shown in its words.
 */
export function FtpDownloadAccount({ metadataId, title, size }: { metadataId: string; title: string; size?: 'small' | 'middle' }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size={size} icon={<CloudDownloadOutlined />} onClick={() => setOpen(true)} aria-label={t('ftpUi.download.openFor', { title })}>
        {t('ftpUi.download.open')}
      </Button>
      <Modal open={open} title={t('ftpUi.download.title')} onCancel={() => setOpen(false)} footer={null} width={760} destroyOnHidden>
        <AccountBody metadataId={metadataId} title={title} />
      </Modal>
    </>
  );
}

function AccountBody({ metadataId, title }: { metadataId: string; title: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const key = ftpKeys.info(metadataId);
  const info = useQuery({ queryKey: key, queryFn: () => ftpApi.info(metadataId), retry: false, staleTime: 0, gcTime: 0 });
  const [created, setCreated] = useState<NewFtpAccount | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const account = await ftpApi.createDownload(metadataId);
      setCreated(account);
      const { password: _shownOnce, ...kept } = account;
      queryClient.setQueryData<FtpAccount>(key, kept);
      message.success(t('ftpUi.download.created'));
    } catch (error) {
      setFailure(refusal(error, t('errors.formGeneric')));
    } finally {
      setBusy(false);
    }
  };

  const account: FtpAccount | undefined = created ?? info.data;
  /** No account yet: ftpinfo's 404, whose message says so. */
  const none = info.error instanceof ApiError && info.error.status === 404;
  const commands = account ? downloadCommands({ ...account, password: created?.password }, metadataId) : null;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="ftp-download-account">
      <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
        {title}
      </Typography.Text>
      <Typography.Text type="secondary">{t('ftpUi.download.intro')}</Typography.Text>
      {info.isLoading && <Spin />}
      {info.error && !created && <Alert type={none ? 'info' : 'error'} showIcon title={refusal(info.error, t('errors.formGeneric'))} />}
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
      {!account && none && (
        <Button type="primary" loading={busy} onClick={() => void create()}>
          {t('ftpUi.download.create')}
        </Button>
      )}
      {account && commands && (
        <>
          <FtpDetails account={account} password={created?.password} />
          <Typography.Text strong>{t('ftpUi.commands')}</Typography.Text>
          {!created && <Typography.Text type="secondary">{t('ftpUi.promptsPassword')}</Typography.Text>}
          <CommandLine label={t('ftpUi.download.list')} command={commands.list} testId="ftp-curl-command" />
          <CommandLine label={t('ftpUi.download.wget')} command={commands.wget} testId="ftp-wget-command" />
          <CommandLine label={t('ftpUi.download.mirror')} command={commands.mirror} testId="ftp-lftp-command" />
          <Popconfirm title={t('ftpUi.download.renewConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => create()}>
            <Button loading={busy}>{t('ftpUi.download.renew')}</Button>
          </Popconfirm>
        </>
      )}
    </Space>
  );
}
