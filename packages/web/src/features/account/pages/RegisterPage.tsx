import { ReloadOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Flex, Form, Input, Modal, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CAPTCHA_IMAGE } from '@portal/shared';
import { path } from '../../../api/routes';
import { postForm } from '../../../api/form';
import { AccountScreen } from '../components/AccountScreen';
import { NewPasswordFields, UserFields } from '../components/UserFields';
import type { RegisterReply } from '@portal/shared/contracts/account';

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

  /** A new image, the typed code cleared; `keepError` keeps the server's word on the old one at the field. */
  const refreshCaptcha = (keepError = false) => {
    setCaptchaSeed(Math.random());
    form.setFields([{ name: 'captcha', value: '', errors: keepError ? form.getFieldError('captcha') : [] }]);
  };

  const handleFinish = async (values: RegisterForm) => {
    setSubmitting(true);
    try {
      // The server's field errors are shown at their fields (a wrong code under the code, not in a toast).
      const done = await postForm<RegisterReply>(path('register'), { ...values, agreement: values.agreement ? 'true' : 'false' }, { message, t, form, inline: true });
      if (!done) {
        // A captcha is tried once: a refused form needs a new one.
        refreshCaptcha(true);
        const first = form.getFieldsError().find((field) => field.errors.length);
        if (first) form.scrollToField(first.name, { block: 'center', focus: true });
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
          <Flex gap={8} align="center">
            <Form.Item name="captcha" noStyle rules={[{ required: true, whitespace: true, message: t('validation.captcha.required') }]}>
              <Input aria-label={t('fields.captcha')} autoComplete="off" maxLength={10} size="large" style={{ flex: 1, minWidth: 0 }} />
            </Form.Item>
            {/* Shown at the size it is drawn, so that no glyph is squeezed or cut. */}
            <img
              src={`${path('captcha')}?_r=${captchaSeed}`}
              alt={t('account.captchaAlt')}
              width={CAPTCHA_IMAGE.width}
              height={CAPTCHA_IMAGE.height}
              onClick={() => refreshCaptcha()}
              style={{ flex: 'none', boxSizing: 'content-box', cursor: 'pointer', border: '1px solid #d9d9d9', borderRadius: 6 }}
            />
            <Tooltip title={t('account.captchaRefresh')}>
              <Button icon={<ReloadOutlined />} aria-label={t('account.captchaRefresh')} onClick={() => refreshCaptcha()} />
            </Tooltip>
          </Flex>
        </Form.Item>
        <Form.Item
          name="agreement"
          valuePropName="checked"
          rules={[
            {
              validator: async (_r, checked: boolean) => {
                if (!checked) throw new Error(t('validation.agreement.required'));
              },
            },
          ]}
        >
          <Checkbox>
            {t('account.agreementText')}{' '}
            <Typography.Link
              onClick={(event) => {
                event.preventDefault();
                setShowAgreement(true);
              }}
            >
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
