import { Button, Card, Input, List, Modal, Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE, reviewDeclineSchema } from '@portal/shared';
import { lengthCount } from '../../../components/zod-rule';
import { useFeedback } from '../../metadata/components/useFeedback';
import { reviewApi, reviewKeys, type ListQuery, type Review } from '../api';
import { pagination } from '../components/DeskList';
import { DeadlineText, LabelTag, PageTitle, titleOf } from '../components/common';

/** /invited/review: the invitations waiting for the signed-in expert. */
export default function InvitedPage() {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState<ListQuery>({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const { data, isLoading } = useQuery({ queryKey: reviewKeys.invited(paging), queryFn: () => reviewApi.invited(paging) });
  const [declining, setDeclining] = useState<Review | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  const decline = async () => {
    if (!declining) return;
    setBusy(true);
    const done = await run(() => reviewApi.decline(declining.id, reason));
    setBusy(false);
    if (!done) return;
    message.success(t('review.ui.invited.declined'));
    setDeclining(null);
    setReason('');
    await queryClient.invalidateQueries({ queryKey: reviewKeys.all });
  };

  return (
    <Card title={<PageTitle>{t('review.ui.invited.title')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('review.ui.invited.intro')}</Typography.Paragraph>
      <List<Review>
        loading={isLoading}
        dataSource={data?.results ?? []}
        locale={{ emptyText: t('review.ui.invited.empty') }}
        pagination={pagination(data?.count, paging, setPaging)}
        renderItem={(review) => (
          <List.Item
            data-testid="invitation"
            style={{ flexWrap: 'wrap', gap: 8 }}
            actions={[
              <Link key="open" to={`/review/advice/${review.id}`}>
                <Button type="primary" size="small">
                  {t('review.ui.invited.open')}
                </Button>
              </Link>,
              <Button key="decline" size="small" danger onClick={() => setDeclining(review)}>
                {t('review.ui.invited.decline')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={<Link to={`/review/advice/${review.id}`}>{titleOf(review.record, t('review.ui.untitled'))}</Link>}
              description={
                <Space wrap size={[8, 4]}>
                  <DeadlineText deadline={review.deadline} />
                  <LabelTag label={review.label} />
                  {review.after_modification && <Tag color="orange">{t('review.ui.invited.afterModification')}</Tag>}
                </Space>
              }
            />
          </List.Item>
        )}
      />
      <Modal
        open={!!declining}
        title={t('review.ui.invited.declineTitle')}
        okText={t('review.ui.invited.decline')}
        okButtonProps={{ danger: true, loading: busy }}
        cancelText={t('editor.no')}
        onOk={() => void decline()}
        onCancel={() => setDeclining(null)}
        destroyOnHidden
      >
        {declining && <Typography.Paragraph strong>{titleOf(declining.record, t('review.ui.untitled'))}</Typography.Paragraph>}
        <Input.TextArea
          aria-label={t('review.ui.invited.declineReason')}
          placeholder={t('review.ui.invited.declineReason')}
          value={reason}
          count={lengthCount(reviewDeclineSchema.shape.content, true)}
          autoSize={{ minRows: 3, maxRows: 8 }}
          onChange={(event) => setReason(event.target.value)}
        />
      </Modal>
    </Card>
  );
}
