import { App, Button, Card, Form, Radio, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CHANGE_RESULT, LANGUAGES, type Language, type User } from '@portal/shared';
import { path } from '../../../api/routes';
import { postForm } from '../../../api/form';
import { clearSession, CURRENT_USER_KEY } from '../api';
import { CurrentPasswordField, NewPasswordFields, UserFields } from '../components/UserFields';
import type { StatusReply } from '@portal/shared/contracts/account';

interface PasswordForm {
  old_password: string;
  password: string;
  password2: string;
}

interface EmailForm {
  email: string;
  old_password: string;
}

interface MailLanguageForm {
  mail_language: Language;
}

/**
 * /personal/settings: change the password (then log in again), the e-mail address, or the language of
 * the portal's mails (the last sign-in's until chosen here).
 */
export default function SettingsPage({ user }: { user: User }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [passwordForm] = Form.useForm<PasswordForm>();
  const [emailForm] = Form.useForm<EmailForm>();
  const [mailLanguageForm] = Form.useForm<MailLanguageForm>();
  const [busy, setBusy] = useState<'password' | 'email' | 'mailLanguage'>();

  const handlePassword = async (values: PasswordForm) => {
    setBusy('password');
    try {
      const done = await postForm<StatusReply>(path('change'), { ...values }, { message, t, form: passwordForm });
      if (done?.status !== CHANGE_RESULT.passwordChanged) return;
      // Every token was revoked: log in again (spec section 2).
      message.success(t('account.passwordChanged'));
      clearSession();
      // Leave the shell first, or it would send the now anonymous user to login with a `next`.
      await navigate('/login', { flushSync: true });
      queryClient.setQueryData(CURRENT_USER_KEY, null);
    } finally {
      setBusy(undefined);
    }
  };

  const handleEmail = async (values: EmailForm) => {
    setBusy('email');
    try {
      if (!(await postForm<StatusReply>(path('change'), { ...values }, { message, t, form: emailForm }))) return;
      message.success(t('account.changeSuccess'));
      emailForm.resetFields();
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    } finally {
      setBusy(undefined);
    }
  };

  const handleMailLanguage = async (values: MailLanguageForm) => {
    setBusy('mailLanguage');
    try {
      if (!(await postForm<StatusReply>(path('change'), { ...values }, { message, t, form: mailLanguageForm }))) return;
      message.success(t('settings.mailLanguageSaved', { language: t(`settings.mailLanguages.${values.mail_language}`) }));
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
        {t('settings.title')}
      </Typography.Title>
      <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('settings.passwordTitle')}</h2>}>
        <Form<PasswordForm> form={passwordForm} layout="vertical" style={{ maxWidth: 420 }} onFinish={handlePassword}>
          <CurrentPasswordField />
          <NewPasswordFields labelKey="fields.new_password" />
          <Button type="primary" htmlType="submit" loading={busy === 'password'}>
            {t('settings.passwordButton')}
          </Button>
        </Form>
      </Card>
      <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('settings.emailTitle')}</h2>}>
        <Typography.Paragraph>{t('settings.currentEmail', { email: user.email })}</Typography.Paragraph>
        <Form<EmailForm> form={emailForm} layout="vertical" style={{ maxWidth: 420 }} onFinish={handleEmail}>
          <UserFields names={['email']} />
          <CurrentPasswordField />
          <Button type="primary" htmlType="submit" loading={busy === 'email'}>
            {t('settings.emailButton')}
          </Button>
        </Form>
      </Card>
      <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('settings.mailLanguageTitle')}</h2>}>
        <Typography.Paragraph type="secondary">{t('settings.mailLanguageHint')}</Typography.Paragraph>
        <Form<MailLanguageForm>
          form={mailLanguageForm}
          layout="vertical"
          style={{ maxWidth: 420 }}
          initialValues={{ mail_language: user.mail_language }}
          onFinish={handleMailLanguage}
        >
          <Form.Item name="mail_language" label={t('fields.mail_language')}>
            <Radio.Group aria-label={t('fields.mail_language')}>
              {LANGUAGES.map((language) => (
                <Radio key={language} value={language}>
                  {t(`settings.mailLanguages.${language}`)}
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy === 'mailLanguage'}>
            {t('settings.mailLanguageButton')}
          </Button>
        </Form>
      </Card>
    </Space>
  );
}
