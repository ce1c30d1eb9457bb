import { Alert, Button, Card, Collapse, Empty, List, Popconfirm, Space, Tag, Timeline, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EXPERT_OUTCOMES } from '@portal/shared';
import { formatDateTime } from '../../../components/format';
import { recordKey, type MetadataRecord } from '../../metadata/api';
import { useFeedback } from '../../metadata/components/useFeedback';
import { reviewApi, reviewKeys, type FeedbackList } from '../api';
import { LabelTag } from './LabelTag';

/** The comments the creator may read (staff: all), for the editor to know whether to show the panel. */
export function useRecordFeedback(id: string, enabled: boolean) {
  return useQuery({ queryKey: reviewKeys.feedback(id), queryFn: () => reviewApi.feedback(id), enabled });
}

/**
 * The editor's review panel: the record's review label, the comments of its review (experts unnamed
 * unless they signed), its trail, and what the creator may do now (the workflow's `actions`).
 */
export function ReviewPanel({ record, feedback }: { record: MetadataRecord; feedback: FeedbackList | undefined }) {
  const { t } = useTranslation();
  const { run, message } = useFeedback();
  const queryClient = useQueryClient();
  const { data: state } = useQuery({ queryKey: reviewKeys.state(record.id), queryFn: () => reviewApi.state(record.id) });
  const { data: trail } = useQuery({ queryKey: reviewKeys.trail(record.id), queryFn: () => reviewApi.trail(record.id) });
  const comments = feedback?.results ?? [];
  const canCancel = !!state && state.roles.includes('creator') && state.actions.includes('cancel');

  const cancel = async () => {
    if (!(await run(() => reviewApi.setStatus(record.id, { review_status: 'cancel' })))) return;
    message.success(t('review.ui.panel.cancelled'));
    await queryClient.invalidateQueries({ queryKey: recordKey(record.id) });
    await queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    await queryClient.invalidateQueries({ queryKey: ['metadata', 'list'] });
  };

  const outcomeText = (value: string) => ((EXPERT_OUTCOMES as readonly string[]).includes(value) ? t(`review.labels.${value}`) : '');

  return (
    <Card
      size="small"
      data-testid="review-panel"
      style={{ marginBottom: 16 }}
      title={
        <Space wrap>
          <span>{t('review.ui.panel.label')}</span>
          {state?.label ? <LabelTag label={state.label} /> : <Tag>{t(`metadata.status.${record.status}`)}</Tag>}
        </Space>
      }
      extra={
        canCancel && (
          <Popconfirm title={t('review.ui.panel.cancelConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => cancel()}>
            <Button size="small" danger>
              {t('review.ui.panel.cancel')}
            </Button>
          </Popconfirm>
        )
      }
    >
      {record.status === 'draft' && comments.length > 0 && <Alert type="warning" showIcon title={t('review.ui.panel.fixHint')} style={{ marginBottom: 12 }} />}
      <Collapse
        size="small"
        defaultActiveKey={['comments']}
        items={[
          {
            key: 'comments',
            label: `${t('review.ui.panel.comments')} (${comments.length})`,
            children: comments.length ? (
              <List
                size="small"
                dataSource={comments}
                renderItem={(item) => (
                  <List.Item data-testid="review-comment">
                    <Space orientation="vertical" size={2} style={{ width: '100%' }}>
                      <Space wrap size={[8, 0]}>
                        <Typography.Text strong>
                          {item.source === 'expert' ? item.author_name || t('review.ui.panel.anonymous') : item.author_name || t(`review.source.${item.source}`)}
                        </Typography.Text>
                        <Tag>{t(`review.source.${item.source}`)}</Tag>
                        {outcomeText(item.review_status) ? (
                          <Tag>{outcomeText(item.review_status)}</Tag>
                        ) : (
                          <Tag>{t(`review.actions.${item.action}`, { defaultValue: item.action })}</Tag>
                        )}
                        <Typography.Text type="secondary">{t('review.ui.panel.round', { round: item.round })}</Typography.Text>
                        <Typography.Text type="secondary">{formatDateTime(item.created_at)}</Typography.Text>
                      </Space>
                      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{item.content}</Typography.Paragraph>
                    </Space>
                  </List.Item>
                )}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('review.ui.panel.noComments')} />
            ),
          },
          {
            key: 'trail',
            label: t('review.ui.panel.trail'),
            children: trail?.results.length ? (
              <Timeline
                items={trail.results.map((event) => ({
                  key: event.id,
                  children: (
                    <Space orientation="vertical" size={0}>
                      <Typography.Text>
                        {t(`review.actions.${event.action}`)}
                        {' · '}
                        {event.actor_name || (event.role === 'expert' ? t('review.ui.panel.anonymous') : t(`review.roles.${event.role}`))}
                      </Typography.Text>
                      <Typography.Text type="secondary">{formatDateTime(event.created_at)}</Typography.Text>
                      {event.comment && <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{event.comment}</Typography.Paragraph>}
                    </Space>
                  ),
                }))}
              />
            ) : (
              <Typography.Text type="secondary">{t('review.ui.panel.noTrail')}</Typography.Text>
            ),
          },
        ]}
      />
    </Card>
  );
}
