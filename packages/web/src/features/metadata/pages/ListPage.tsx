import { Button, Card, Popconfirm, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE, IN_REVIEW_STATUSES } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { formatDateTime } from '../../../components/format';
import { tablePagination } from '../../../components/table-pagination';
import { useIsPhone } from '../../../components/useIsPhone';
import { metadataApi, type MetadataRecord } from '../api';
import { LabelTag } from '../../review/components/LabelTag';
import { useFeedback } from '../components/useFeedback';
import { useReturnToDraft, useSubmitFlow } from '../components/useSubmitFlow';

export type ListKind = 'draft' | 'review' | 'published';

const TITLES: Record<ListKind, string> = { draft: 'editor.list.draftTitle', review: 'editor.list.reviewTitle', published: 'editor.list.publishedTitle' };
const STATUS_PARAMS: Record<ListKind, Record<string, string | string[]>> = {
  draft: { status: 'draft' },
  review: { status: [...IN_REVIEW_STATUSES] },
  published: { status: 'published' },
};

/** /metadata/draft, /metadata/review, /metadata/published: the caller's own records (Personal header). */
export default function ListPage({ kind }: { kind: ListKind }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const isPhone = useIsPhone();
  const submit = useSubmitFlow();
  const returnToDraft = useReturnToDraft();
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const { data, isLoading } = useQuery({
    queryKey: ['metadata', 'list', kind, paging],
    queryFn: () => metadataApi.list({ ...STATUS_PARAMS[kind], ...paging }),
  });

  const remove = async (id: string) => {
    if (await run(async () => (await metadataApi.remove(id), true))) {
      message.success(t('metadata.deleted'));
      await queryClient.invalidateQueries({ queryKey: ['metadata'] });
    }
  };

  // In review: the reviewer status label of spec section 4 in words beside the record's status.
  const statusTags = (record: MetadataRecord) => (
    <Space size={[0, 4]} wrap>
      <Tag>{t(`metadata.status.${record.status}`)}</Tag>
      {kind === 'review' && <LabelTag label={record.review_label} />}
    </Space>
  );
  const columns: TableColumnsType<MetadataRecord> = [
    {
      title: t('editor.list.title'),
      dataIndex: 'title',
      // A record written in the other language shows its title in the page's language when it has one.
      render: (title: string, record) => (
        <Space orientation="vertical" size={4}>
          <Link to={`/metadata/edit/${record.id}`}>{(record.language !== pageLanguage && record.translation_title) || title || t('editor.list.untitled')}</Link>
          {/* On a phone the status column is hidden: the status and the review label stand under the title. */}
          {isPhone && statusTags(record)}
        </Space>
      ),
    },
    { title: t('editor.language'), dataIndex: 'language', width: 100, responsive: ['md'], render: (language: string) => t(`metadata.options.language.${language}`) },
    {
      title: t('editor.list.status'),
      dataIndex: 'status',
      width: 160,
      responsive: ['md'],
      render: (_: string, record) => statusTags(record),
    },
    { title: t('editor.list.updated'), dataIndex: 'updated_at', width: 190, responsive: ['md'], render: (value: string) => formatDateTime(value) },
  ];
  if (kind === 'published') {
    columns.push({
      title: t('editor.list.actions'),
      key: 'actions',
      width: 120,
      render: (_, record) => <Link to={`/metadata/statistics/${record.id}`}>{t('statistics.link')}</Link>,
    });
  } else {
    columns.push({
      title: t('editor.list.actions'),
      key: 'actions',
      width: 260,
      render: (_, record) =>
        kind === 'draft' ? (
          <Space wrap>
            <Link to={`/metadata/edit/${record.id}`}>{t('editor.list.edit')}</Link>
            <Button size="small" type="primary" onClick={() => void submit(record.id)}>
              {t('editor.submit')}
            </Button>
            <Popconfirm title={t('editor.list.deleteConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => remove(record.id)}>
              <Button size="small" danger>
                {t('editor.delete')}
              </Button>
            </Popconfirm>
          </Space>
        ) : (
          <Popconfirm title={t('editor.returnConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => returnToDraft(record.id)}>
            <Button size="small">{t('editor.returnDraft')}</Button>
          </Popconfirm>
        ),
    });
  }

  return (
    <Card title={<h1 style={{ margin: 0, fontSize: 20 }}>{t(TITLES[kind])}</h1>} extra={<Link to="/metadata/add">{t('editor.addTitle')}</Link>}>
      <Table<MetadataRecord>
        rowKey="id"
        loading={isLoading}
        columns={columns}
        dataSource={data?.results ?? []}
        locale={{ emptyText: t('editor.list.empty') }}
        pagination={tablePagination(data?.count, paging, setPaging)}
      />
    </Card>
  );
}
