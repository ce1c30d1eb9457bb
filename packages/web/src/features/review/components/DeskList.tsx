import { Input, List, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/format';
import type { DeskItem, DeskPage, ListQuery } from '../api';
import { LabelTag, titleOf } from './common';

/** A list's paging: none while everything fits on one page. */
export function pagination(count: number | undefined, paging: ListQuery, onPaging: (paging: ListQuery) => void) {
  return (count ?? 0) > paging.pageSize
    ? { current: paging.page, pageSize: paging.pageSize, total: count ?? 0, onChange: (page: number, pageSize: number) => onPaging({ ...paging, page, pageSize }) }
    : false;
}

/** Records with their review facts as a list that wraps on a phone: title, provider, status, label, and the row's actions. */
export function DeskList({
  data,
  loading,
  paging,
  onPaging,
  empty,
  title,
  actions,
  testId,
}: {
  data: DeskPage | undefined;
  loading: boolean;
  paging: ListQuery;
  onPaging: (paging: ListQuery) => void;
  empty: string;
  title: (item: DeskItem, text: string) => ReactNode;
  actions?: (item: DeskItem) => ReactNode[];
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <List<DeskItem>
      loading={loading}
      dataSource={data?.results ?? []}
      locale={{ emptyText: empty }}
      pagination={pagination(data?.count, paging, onPaging)}
      renderItem={(item) => (
        <List.Item data-testid={testId} style={{ flexWrap: 'wrap', gap: 8 }} actions={actions?.(item)}>
          <List.Item.Meta
            title={title(item, titleOf(item, t('review.ui.untitled')))}
            description={
              <Space wrap size={[8, 4]}>
                <Typography.Text type="secondary">{t('review.ui.ownerIs', { name: item.owner_name || '—' })}</Typography.Text>
                {item.submitted_at && <Typography.Text type="secondary">{t('review.ui.submittedOn', { date: formatDateTime(item.submitted_at) })}</Typography.Text>}
                <Tag>{t(`metadata.status.${item.status}`)}</Tag>
                {item.topic_review_status && item.topic_review_status !== 'waiting' && <Tag>{t(`review.ui.project.topicStatus.${item.topic_review_status}`)}</Tag>}
                <LabelTag label={item.label} />
              </Space>
            }
          />
        </List.Item>
      )}
    />
  );
}

/** A search box over the titles that starts the list again from its first page. */
export function TitleSearch({ paging, onPaging }: { paging: ListQuery; onPaging: (paging: ListQuery) => void }) {
  const { t } = useTranslation();
  return (
    <Input.Search
      allowClear
      aria-label={t('review.ui.search')}
      placeholder={t('review.ui.search')}
      style={{ maxWidth: 360, marginBottom: 12 }}
      defaultValue={paging.search}
      onSearch={(search) => onPaging({ ...paging, page: 1, search: search.trim() || undefined })}
    />
  );
}
