import { App, Button, Card, Descriptions, Form } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { User } from '@portal/shared';
import { path } from '../../../api/routes';
import { postForm } from '../../../api/form';
import { CURRENT_USER_KEY } from '../api';
import { UserFields } from '../components/UserFields';
import { formatDateTime } from '../../../components/format';
import type { StatusReply } from '@portal/shared/contracts/account';

type ProfileForm = Pick<User, 'username' | 'realname' | 'affiliation' | 'address' | 'phone' | 'zipcode' | 'specialty'>;

/** /personal/information: the user's own fields, changed through /account/change/. */
export default function ProfilePage({ user }: { user: User }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProfileForm>();
  const [saving, setSaving] = useState(false);

  const handleFinish = async (values: ProfileForm) => {
    setSaving(true);
    try {
      const done = await postForm<StatusReply>(path('change'), { ...values }, { message, t, form });
      if (!done) return;
      message.success(t('account.changeSuccess'));
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      navigate('/personal/information');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={<h1 style={{ margin: 0, fontSize: 20 }}>{t('profile.title')}</h1>}>
      <Descriptions column={1} size="small" style={{ marginBottom: 24 }}>
        <Descriptions.Item label={t('fields.email')}>{user.email}</Descriptions.Item>
        <Descriptions.Item label={t('fields.date_joined')}>{formatDateTime(user.date_joined)}</Descriptions.Item>
      </Descriptions>
      <Form<ProfileForm>
        form={form}
        layout="vertical"
        style={{ maxWidth: 560 }}
        initialValues={{
          username: user.username,
          realname: user.realname,
          affiliation: user.affiliation,
          address: user.address,
          phone: user.phone,
          zipcode: user.zipcode,
          specialty: user.specialty,
        }}
        onFinish={handleFinish}
      >
        <UserFields names={['username', 'realname', 'affiliation', 'address', 'phone', 'zipcode', 'specialty']} />
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('profile.save')}
        </Button>
      </Form>
    </Card>
  );
}
