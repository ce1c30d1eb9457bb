import { App, Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { path } from '../../../api/routes';
import { postForm } from '../../../api/form';
import { AccountScreen } from '../components/AccountScreen';
import { NewPasswordFields } from '../components/UserFields';
import type { StatusReply } from '@portal/shared/contracts/account';

interface ResetForm {
  password: string;
  password2: string;
}

/** Reached from the reset mail: `#/reset?key=...`. */
export default function ResetPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<ResetForm>();
  const [submitting, setSubmitting] = useState(false);

  const handleFinish = async (values: ResetForm) => {
    setSubmitting(true);
    try {
      if (await postForm<StatusReply>(path('reset'), { ...values, key: params.get('key') ?? '' }, { message, t, form })) {
        message.success(t('account.resetSuccess'));
        navigate('/login');
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountScreen title={t('account.resetTitle')}>
      <Form form={form} layout="vertical" onFinish={handleFinish}>
        <NewPasswordFields labelKey="fields.new_password" />
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('account.resetButton')}
        </Button>
      </Form>
      <Link to="/forgot">{t('account.forgotLink')}</Link>
    </AccountScreen>
  );
}
