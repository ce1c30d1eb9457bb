import { Card, Input, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@portal/shared';
import type { UserPage } from '@portal/shared/contracts/account';
import { api, isRequestError } from '../../api/client';
import { path } from '../../api/routes';
import { formatDate } from '../../components/format';
import { AdminTabs } from './AdminTabs';
import { StaffOnly } from './StaffOnly';

/** Staff's administration: the users of the portal (GET /api/account/account/, staff only). */
export default function AdminPage() {
  return (
    <StaffOnly returnTo="/admin/">
      <UserList />
    </StaffOnly>
  );
}

function UserList() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const users = useQuery({
    queryKey: ['admin', 'users', search, page],
    queryFn: async () => {
      const reply = await api.get<UserPage>(path('users'), { search, page, pageSize: 20 });
      if (!reply || isRequestError(reply)) throw new Error(String(reply?.detail ?? t('errors.generic')));
      return reply;
    },
  });

  return (
    <Card
      title={
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          {t('admin.title')}
        </Typography.Title>
      }
    >
      <AdminTabs active="/admin" />
      <Input.Search
        placeholder={t('admin.search')}
        aria-label={t('admin.search')}
        allowClear
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
        style={{ maxWidth: 420, marginBottom: 16 }}
      />
      <Table<User>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={users.isFetching}
        dataSource={users.data?.results}
        pagination={{ current: page, pageSize: 20, total: users.data?.count, onChange: setPage, showTotal: (count) => t('admin.total', { count }) }}
        columns={[
          { title: t('fields.username'), dataIndex: 'username' },
          { title: t('fields.realname'), dataIndex: 'realname' },
          { title: t('fields.email'), dataIndex: 'email' },
          { title: t('fields.affiliation'), dataIndex: 'affiliation' },
          {
            title: t('dashboard.roles'),
            key: 'roles',
            render: (_value, user) => (
              <>
                {user.is_staff && <Tag color="red">{t('dashboard.roleStaff')}</Tag>}
                {user.is_project > 0 && <Tag color="green">{t('dashboard.roleProject', { level: user.is_project })}</Tag>}
              </>
            ),
          },
          { title: t('fields.date_joined'), dataIndex: 'date_joined', render: (value: string) => formatDate(value) },
        ]}
      />
    </Card>
  );
}
