import { Alert, Descriptions, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../components/format';
import { useIsPhone } from '../../components/useIsPhone';
import type { FtpAccount } from './api';

/** Long words (user names, passwords, command lines) wrap inside their box instead of widening the page. */
export const WRAP = { overflowWrap: 'anywhere', wordBreak: 'break-word' } as const;

/** A command line to paste, its label above it, in a box of its own (long lines wrap inside it) with a copy button. */
export function CommandLine({ label, command, testId }: { label: string; command: string; testId?: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Flex align="start" gap={4}>
        <pre
          data-testid={testId}
          style={{
            ...WRAP,
            flex: 1,
            minWidth: 0,
            margin: 0,
            padding: '4px 8px',
            whiteSpace: 'pre-wrap',
            fontFamily: token.fontFamilyCode,
            fontSize: token.fontSizeSM,
            background: token.colorFillTertiary,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadiusSM,
          }}
        >
          {command}
        </pre>
        <Typography.Text copyable={{ text: command, tooltips: [t('ftpUi.copy'), t('ftpUi.copied')] }} style={{ paddingTop: 4 }} />
      </Flex>
    </div>
  );
}

/**
 * An FTP account's host, port, user and expiry, each copyable; the password too, with the warning
 * that it is shown only now, when the account was just made.
 */
export function FtpDetails({ account, password }: { account: FtpAccount; password?: string }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const copyable = (text: string) => ({ text, tooltips: [t('ftpUi.copy'), t('ftpUi.copied')] });
  const value = (text: string, testId: string) => (
    <Typography.Text code copyable={copyable(text)} data-testid={testId} style={WRAP}>
      {text}
    </Typography.Text>
  );
  return (
    <>
      <Descriptions
        size="small"
        column={1}
        bordered
        layout={isPhone ? 'vertical' : 'horizontal'}
        styles={isPhone ? { label: { paddingBlock: 4 } } : { label: { whiteSpace: 'nowrap', width: 1 } }}
        items={[
          { key: 'host', label: t('ftpUi.host'), children: value(account.host, 'ftp-host') },
          { key: 'port', label: t('ftpUi.port'), children: value(String(account.port), 'ftp-port') },
          { key: 'username', label: t('ftpUi.username'), children: value(account.username, 'ftp-username') },
          ...(password ? [{ key: 'password', label: t('ftpUi.password'), children: value(password, 'ftp-password') }] : []),
          {
            key: 'expires',
            label: t('ftpUi.expires'),
            children: <span data-testid="ftp-expires">{account.expires_at ? formatDateTime(account.expires_at) : t('ftpUi.whileDraft')}</span>,
          },
        ]}
      />
      {password && <Alert type="warning" showIcon role="alert" title={t('ftpUi.passwordOnce')} style={{ marginTop: 12 }} />}
    </>
  );
}
