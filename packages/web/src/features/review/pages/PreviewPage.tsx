import { Button, Card, Popconfirm, Result, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_PAGE_SIZE, type User } from '@portal/shared';
import { useFeedback } from '../../metadata/components/useFeedback';
import { reviewApi, reviewKeys, type ListQuery } from '../api';
import { PageTitle } from '../components/common';
import { DeskList, TitleSearch } from '../components/DeskList';

/** /review/preview (Chinese site): staff mark the formal pre-review of received records done. */
export default function PreviewPage({ user }: { user: User }) {
  const { t } = useFeedback();
  if (!user.is_staff)
    return (
      <Card title={<PageTitle>{t('review.ui.preview.title')}</PageTitle>}>
        <Result status="info" title={t('review.ui.preview.staffOnly')} />
      </Card>
    );
  return <StaffPreview />;
}

function StaffPreview() {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState<ListQuery>({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  // Received by the data centre, the formal pre-review not done yet.
  const query = { ...paging, status: 'receive', preReview: false };
  const { data, isLoading } = useQuery({ queryKey: reviewKeys.desk(query), queryFn: () => reviewApi.desk(query) });

  const mark = async (id: string) => {
    if (!(await run(() => reviewApi.setStatus(id, { is_pre_review: true })))) return;
    message.success(t('review.ui.preview.marked'));
    await queryClient.invalidateQueries({ queryKey: reviewKeys.all });
  };

  return (
    <Card title={<PageTitle>{t('review.ui.preview.title')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('review.ui.preview.intro')}</Typography.Paragraph>
      <TitleSearch paging={paging} onPaging={setPaging} />
      <DeskList
        testId="preview-item"
        data={data}
        loading={isLoading}
        paging={paging}
        onPaging={setPaging}
        empty={t('review.ui.preview.empty')}
        title={(_, text) => text}
        actions={(item) => [
          <Popconfirm key="mark" title={t('review.ui.preview.confirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => mark(item.id)}>
            <Button size="small" type="primary">
              {t('review.ui.preview.markDone')}
            </Button>
          </Popconfirm>,
        ]}
      />
    </Card>
  );
}
