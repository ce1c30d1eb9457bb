import { Alert, App, Button, Form, Input, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isSiteReturnPage, safeReturnAddress } from '@portal/shared';
import { api, isRequestError } from '../../../api/client';
import { path } from '../../../api/routes';
import { flashAfterReload } from '../../../app/flash';
import { sitePath, siteRoot } from '../../../app/site';
import { CURRENT_USER_KEY } from '../api';
import { AccountScreen } from '../components/AccountScreen';
import type { LoginReply } from '@portal/shared/contracts/account';

interface LoginForm {
  username: string;
  password: string;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [submitting, setSubmitting] = useState(false);
  const [notActive, setNotActive] = useState(false);
  /** The page that sent the visitor here, to go back to once signed in. */
  const next = safeReturnAddress(params.get('next'));

  const handleFinish = async (values: LoginForm) => {
    setSubmitting(true);
    try {
      const reply = await api.postForm<LoginReply>(path('login'), { ...values });
      if (!reply || isRequestError(reply)) {
        setNotActive(reply?.request_error.status === 403);
        message.error(typeof reply?.detail === 'string' ? reply.detail : t('account.loginFailed'));
        return;
      }
      // The reply has set the token (an HttpOnly cookie) and csrftoken; the page keeps the user, not the token.
      const { token: _token, ...user } = reply;
      queryClient.setQueryData(CURRENT_USER_KEY, user);
      // Back to the page asked for, otherwise the site root (spec section 2, widened by issue 6).
      if (next && !isSiteReturnPage(next)) {
        message.success(t('account.loginSuccess'));
        navigate(next);
      } else if (next) {
        flashAfterReload('success', t('account.loginSuccess'));
        location.assign(sitePath(next));
      } else {
        flashAfterReload('success', t('account.loginSuccess'));
        location.assign(siteRoot());
      }
    } catch {
      message.error(t('account.loginFailed'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountScreen title={t('account.loginTitle')}>
      {next && <Alert type="info" showIcon message={t('account.loginToContinue')} />}
      {params.get('activated') === '1' && <Alert type="success" showIcon message={t('account.activated')} />}
      {params.get('activation') === 'invalid' && <Alert type="warning" showIcon message={t('account.activationInvalid')} />}
      {notActive && <Alert type="info" showIcon message={t('account.notActive')} action={<Link to="/send">{t('account.sendButton')}</Link>} />}
      <Form<LoginForm> layout="vertical" onFinish={handleFinish} requiredMark={false}>
        <Form.Item name="username" label={t('fields.login')} rules={[{ required: true, whitespace: true, message: t('validation.login.required') }]}>
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item name="password" label={t('fields.password')} rules={[{ required: true, message: t('validation.password.required') }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('account.loginButton')}
        </Button>
      </Form>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <span>
          {t('account.noAccount')} <Link to="/register">{t('nav.register')}</Link>
        </span>
        <Link to="/forgot">{t('account.forgotLink')}</Link>
      </Space>
    </AccountScreen>
  );
}
