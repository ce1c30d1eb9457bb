import { Card, List, Space, Tabs, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE, hasProjectRole, type User } from '@portal/shared';
import { formatDateTime } from '../../../components/format';
import { reviewApi, reviewKeys, type ListQuery, type Review } from '../api';
import { LabelTag, PageTitle, titleOf } from '../components/common';
import { DeskList, pagination, TitleSearch } from '../components/DeskList';

/**
 * /review/hitory (the spec's spelling): an expert's answered and declined reviews; a project
 * leader's reviewed project data, with their own expert reviews beside it.
 */
export default function HistoryPage({ user }: { user: User }) {
  const { t } = useTranslation();
  if (!hasProjectRole(user))
    return (
      <Card title={<PageTitle>{t('review.ui.history.title')}</PageTitle>}>
        <ExpertHistory />
      </Card>
    );
  return (
    <Card title={<PageTitle>{t('review.ui.history.title')}</PageTitle>}>
      <Tabs
        items={[
          { key: 'project', label: t('review.ui.history.projectTitle'), children: <LeaderHistory /> },
          { key: 'expert', label: t('review.ui.history.myReviews'), children: <ExpertHistory /> },
        ]}
      />
    </Card>
  );
}

function ExpertHistory() {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<ListQuery>({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const { data, isLoading } = useQuery({ queryKey: reviewKeys.history(paging), queryFn: () => reviewApi.history(paging) });
  return (
    <>
      <TitleSearch paging={paging} onPaging={setPaging} />
      <List<Review>
        loading={isLoading}
        dataSource={data?.results ?? []}
        locale={{ emptyText: t('review.ui.history.empty') }}
        pagination={pagination(data?.count, paging, setPaging)}
        renderItem={(review) => (
          <List.Item data-testid="history-item" style={{ flexWrap: 'wrap', gap: 8 }}>
            <List.Item.Meta
              title={<Link to={`/review/advice/${review.id}`}>{titleOf(review.record, t('review.ui.untitled'))}</Link>}
              description={
                <Space wrap size={[8, 4]}>
                  {review.review_status === 'declined' ? <Tag>{t('review.ui.advice.declined')}</Tag> : <LabelTag label={review.label} />}
                  {review.after_modification && <Tag color="orange">{t('review.ui.invited.afterModification')}</Tag>}
                  {review.answered_at && <Typography.Text type="secondary">{t('review.ui.history.answeredOn', { date: formatDateTime(review.answered_at) })}</Typography.Text>}
                </Space>
              }
            />
            {review.content && (
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ width: '100%', margin: 0 }}>
                {review.content}
              </Typography.Paragraph>
            )}
          </List.Item>
        )}
      />
    </>
  );
}

function LeaderHistory() {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<ListQuery>({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const query = { ...paging, reviewed: true };
  const { data, isLoading } = useQuery({ queryKey: reviewKeys.topic(query), queryFn: () => reviewApi.topicQueue(query) });
  return (
    <>
      <TitleSearch paging={paging} onPaging={setPaging} />
      <DeskList
        testId="project-history-item"
        data={data}
        loading={isLoading}
        paging={paging}
        onPaging={setPaging}
        empty={t('review.ui.history.projectEmpty')}
        title={(item, text) => <Link to={`/review/submit/${item.id}`}>{text}</Link>}
      />
    </>
  );
}
