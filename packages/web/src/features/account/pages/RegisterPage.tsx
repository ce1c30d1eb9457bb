import { App, Button, Checkbox, Form, Input, Modal, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { postForm } from '../../../api/form';
import { AccountScreen } from '../components/AccountScreen';
import { NewPasswordFields, UserFields } from '../components/UserFields';

interface RegisterForm {
  username: string;
  realname: string;
  email: string;
  password: string;
  password2: string;
  affiliation: string;
  address: string;
  phone?: string;
  zipcode?: string;
  specialty?: string;
  captcha: string;
  agreement: boolean;
}

/** Registration (spec sections 3 and 5): every rule of the form is the server's schema. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterForm>();
  const [captchaSeed, setCaptchaSeed] = useState(() => Math.random());
  const [showAgreement, setShowAgreement] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const refreshCaptcha = () => {
    setCaptchaSeed(Math.random());
    form.setFieldValue('captcha', '');
  };

  const handleFinish = async (values: RegisterForm) => {
    setSubmitting(true);
    try {
      const done = await postForm<{ email: string; msg: string }>(
        '/account/register/',
        { ...values, agreement: values.agreement ? 'true' : 'false' },
        { message, t, form },
      );
      if (!done) {
        // A captcha is tried once: a refused form needs a new one.
        refreshCaptcha();
        return;
      }
      message.success(t('account.registerSuccess'));
      navigate('/send', { state: { registeredEmail: done.email } });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountScreen title={t('account.registerTitle')} width={560}>
      <Form<RegisterForm> form={form} layout="vertical" onFinish={handleFinish} initialValues={{ agreement: false }}>
        <UserFields names={['username', 'realname', 'email']} />
        <NewPasswordFields />
        <UserFields names={['affiliation', 'address', 'phone', 'zipcode', 'specialty']} />
        <Form.Item label={t('fields.captcha')} required>
          <Space.Compact block>
            <Form.Item name="captcha" noStyle rules={[{ required: true, whitespace: true, message: t('validation.captcha.required') }]}>
              <Input aria-label={t('fields.captcha')} autoComplete="off" maxLength={10} />
            </Form.Item>
            <Tooltip title={t('account.captchaRefresh')}>
              <img
                src={`/account/jpgcode?_r=${captchaSeed}`}
                alt={t('account.captchaAlt')}
                width={120}
                height={32}
                onClick={refreshCaptcha}
                style={{ cursor: 'pointer', border: '1px solid #d9d9d9', borderLeft: 'none' }}
              />
            </Tooltip>
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="agreement"
          valuePropName="checked"
          rules={[{ validator: async (_r, checked: boolean) => { if (!checked) throw new Error(t('validation.agreement.required')); } }]}
        >
          <Checkbox>
            {t('account.agreementText')}{' '}
            <Typography.Link onClick={(event) => { event.preventDefault(); setShowAgreement(true); }}>
              {t('account.agreementTitle')}
            </Typography.Link>
          </Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('account.registerButton')}
        </Button>
      </Form>
      <span>
        {t('account.haveAccount')} <Link to="/login">{t('nav.login')}</Link>
      </span>
      <Modal open={showAgreement} title={t('account.agreementTitle')} onCancel={() => setShowAgreement(false)} footer={null}>
        <Typography.Paragraph>{t('account.agreementBody')}</Typography.Paragraph>
      </Modal>
    </AccountScreen>
  );
}
