import { Button, Card, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '@portal/shared';
import { reviewApi, reviewKeys, type ListQuery } from '../api';
import { PageTitle } from '../components/common';
import { DeskList, TitleSearch } from '../components/DeskList';

/** /review/projectList: the project data of the leader's topics waiting for their review. */
export default function ProjectListPage() {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<ListQuery>({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const { data, isLoading } = useQuery({ queryKey: reviewKeys.topic(paging), queryFn: () => reviewApi.topicQueue(paging) });
  return (
    <Card title={<PageTitle>{t('review.ui.project.title')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('review.ui.project.intro')}</Typography.Paragraph>
      <TitleSearch paging={paging} onPaging={setPaging} />
      <DeskList
        testId="project-item"
        data={data}
        loading={isLoading}
        paging={paging}
        onPaging={setPaging}
        empty={t('review.ui.project.empty')}
        title={(item, text) => <Link to={`/review/submit/${item.id}`}>{text}</Link>}
        actions={(item) => [
          <Link key="review" to={`/review/submit/${item.id}`}>
            <Button type="primary" size="small">
              {t('review.ui.project.review')}
            </Button>
          </Link>,
        ]}
      />
    </Card>
  );
}
