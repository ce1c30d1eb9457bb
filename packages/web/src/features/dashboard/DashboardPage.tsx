import { Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasProjectRole, type User } from '@portal/shared';
import { formatDate, formatDateTime } from '../../components/format';

/** The personal centre's home: who you are here and what you may do. */
export default function DashboardPage({ user }: { user: User }) {
  const { t } = useTranslation();
  const roles = [
    user.is_staff ? t('dashboard.roleStaff') : null,
    hasProjectRole(user) ? t('dashboard.roleProject', { level: user.is_project }) : null,
    t('dashboard.roleUser'),
  ].filter((role): role is string => role !== null);
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('dashboard.greeting', { name: user.realname || user.username })}
      </Typography.Title>
      <Card title={<h2 style={{ margin: 0, fontSize: 16 }}>{t('dashboard.account')}</h2>}>
        <Descriptions column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label={t('fields.username')}>{user.username}</Descriptions.Item>
          <Descriptions.Item label={t('fields.realname')}>{user.realname}</Descriptions.Item>
          <Descriptions.Item label={t('fields.email')}>{user.email}</Descriptions.Item>
          <Descriptions.Item label={t('fields.affiliation')}>{user.affiliation || t('common.none')}</Descriptions.Item>
          <Descriptions.Item label={t('dashboard.roles')}>
            {roles.map((role) => (
              <Tag key={role} color="blue">
                {role}
              </Tag>
            ))}
          </Descriptions.Item>
          <Descriptions.Item label={t('dashboard.joined')}>{formatDate(user.date_joined)}</Descriptions.Item>
          <Descriptions.Item label={t('dashboard.lastLogin')}>{user.last_login ? formatDateTime(user.last_login) : t('common.none')}</Descriptions.Item>
        </Descriptions>
        <Space>
          <Link to="/personal/information">
            <Button>{t('dashboard.editProfile')}</Button>
          </Link>
          <Link to="/personal/settings">
            <Button>{t('dashboard.openSettings')}</Button>
          </Link>
        </Space>
      </Card>
    </Space>
  );
}
