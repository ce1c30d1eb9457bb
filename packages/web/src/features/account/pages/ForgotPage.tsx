import { Alert, App, Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { path } from '../../../api/routes';
import { postForm } from '../../../api/form';
import { AccountScreen } from '../components/AccountScreen';
import { UserFields } from '../components/UserFields';
import type { StatusReply } from '@portal/shared/contracts/account';

export default function ForgotPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ email: string }>();
  const [sentTo, setSentTo] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const handleFinish = async (values: { email: string }) => {
    setSubmitting(true);
    try {
      const done = await postForm<StatusReply>(path('forgot'), values, { message, t, form });
      if (done) setSentTo(values.email);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountScreen title={t('account.forgotTitle')}>
      {sentTo ? (
        <Alert type="success" showIcon message={t('account.forgotSent', { email: sentTo })} />
      ) : (
        <>
          <p>{t('account.forgotHint')}</p>
          <Form form={form} layout="vertical" onFinish={handleFinish}>
            <UserFields names={['email']} />
            <Button type="primary" htmlType="submit" block loading={submitting}>
              {t('account.forgotButton')}
            </Button>
          </Form>
        </>
      )}
      <Link to="/login">{t('nav.login')}</Link>
    </AccountScreen>
  );
}
