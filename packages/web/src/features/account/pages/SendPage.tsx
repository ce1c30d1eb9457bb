import { Alert, App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { path } from '../../../api/routes';
import { postForm } from '../../../api/form';
import { AccountScreen } from '../components/AccountScreen';
import type { StatusReply } from '@portal/shared/contracts/account';

/** After registering, and for anyone whose verification mail got lost: send it again. */
export default function SendPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ username: string }>();
  const registeredEmail = (useLocation().state as { registeredEmail?: string } | null)?.registeredEmail;
  const [sent, setSent] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const handleFinish = async (values: { username: string }) => {
    setSubmitting(true);
    try {
      const done = await postForm<StatusReply>(path('sendActivation'), values, { message, t, form });
      if (done) {
        setSent(true);
        message.success(done.msg);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountScreen title={t('account.sendTitle')}>
      {registeredEmail && <Alert type="success" showIcon message={t('account.registerSuccess')} description={t('account.registerMailSent', { email: registeredEmail })} />}
      {sent && <Alert type="success" showIcon message={t('account.sendDone')} />}
      <p>{t('account.sendHint')}</p>
      <Form form={form} layout="vertical" onFinish={handleFinish} initialValues={{ username: registeredEmail ?? '' }}>
        <Form.Item name="username" label={t('fields.login')} rules={[{ required: true, whitespace: true, message: t('validation.login.required') }]}>
          <Input />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('account.sendButton')}
        </Button>
      </Form>
      <Link to="/login">{t('nav.login')}</Link>
    </AccountScreen>
  );
}
