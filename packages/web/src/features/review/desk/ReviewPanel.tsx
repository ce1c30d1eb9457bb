import { App, Button, Card, Col, Descriptions, Drawer, Empty, Flex, Form, Input, Modal, Popconfirm, Row, Tag, Timeline, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkTransition, DECISIONS_NEEDING_COMMENT, REVIEW_COMMENT_MAX, type ReviewAction } from '@portal/shared';
import { handleFormReply } from '../../../api/form';
import { personalPath } from '../../../app/site';
import { formatDate, formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { DoiRegistrationLine } from '../../doi/DoiRegistrationLine';
import { InviteExpertsModal } from './InviteExpertsModal';
import { useDeskStep } from './useDeskStep';
import { reviewDeskApi, titleOf, type Review, type ReviewDeskItem, type ReviewState } from './reviewDeskApi';

/** The data centre's decisions the desk offers, in the order of the workflow; only those in `state.actions` show. */
const DESK_ACTIONS = ['receive', 'pre_review', 'invite', 'approve', 'return', 'refuse', 'publish', 'publish_without_review', 'unpublish', 'cancel'] as const;
type DeskAction = (typeof DESK_ACTIONS)[number];
/** Decisions that end or undo something: shown as danger buttons. */
const DANGEROUS: readonly DeskAction[] = ['refuse', 'unpublish', 'cancel'];
const PRIMARY: readonly DeskAction[] = ['receive', 'invite', 'approve', 'publish'];

export const reviewStateKey = (id: string) => ['reviewDesk', 'state', id] as const;

/** The review panel of one submission: where it stands, the experts' answers, the trail and the decisions. */
export function ReviewPanel({ item, onClose }: { item: ReviewDeskItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const title = item ? titleOf(item) || t('reviewDesk.untitled') : '';
  return (
    <Drawer open={!!item} onClose={onClose} size={isPhone ? '100%' : 820} title={title} destroyOnHidden styles={isPhone ? { body: { padding: 12 } } : undefined}>
      {item && <PanelBody id={item.id} title={title} />}
    </Drawer>
  );
}

function PanelBody({ id, title }: { id: string; title: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [deciding, setDeciding] = useState<DeskAction | null>(null);
  const state = useQuery({ queryKey: reviewStateKey(id), queryFn: () => reviewDeskApi.state(id, t('reviewDesk.panel.loadFailed')) });

  /** After a step, or when someone else decided first: this panel and the list show what is now stored. */
  const reload = () => queryClient.invalidateQueries({ queryKey: ['reviewDesk'] });

  if (state.isLoading) return <Typography.Paragraph>{t('common.loading')}</Typography.Paragraph>;
  if (!state.data) return <Typography.Paragraph type="danger">{state.error?.message ?? t('reviewDesk.panel.loadFailed')}</Typography.Paragraph>;
  const review = state.data;
  const offered = DESK_ACTIONS.filter((action) => review.actions.includes(action));

  const mailFeedback = async () => {
    const reply = await reviewDeskApi.mailFeedback(id);
    const done = handleFormReply<{ msg: string }>(reply, { message, t });
    if (done) message.success(done.msg);
  };

  return (
    <Flex vertical gap={20}>
      <Facts review={review} />
      {review.published_at && <DoiRegistrationLine id={id} />}
      <Flex wrap gap={8}>
        <Button href={personalPath(`/metadata/edit/${id}`)} target="_blank" rel="noopener">
          {t('reviewDesk.panel.openRecord')}
        </Button>
        <Popconfirm title={t('reviewDesk.feedbackMailConfirm')} okText={t('reviewDesk.confirm.ok')} cancelText={t('common.cancel')} onConfirm={mailFeedback}>
          <Button>{t('reviewDesk.feedbackMail')}</Button>
        </Popconfirm>
      </Flex>

      <section aria-labelledby="desk-decisions">
        <Typography.Title level={2} id="desk-decisions" style={{ fontSize: 16 }}>
          {t('reviewDesk.panel.decisions')}
        </Typography.Title>
        {offered.length ? (
          <Flex wrap gap={8}>
            {offered.map((action) => (
              <Button key={action} type={PRIMARY.includes(action) ? 'primary' : 'default'} danger={DANGEROUS.includes(action)} onClick={() => setDeciding(action)}>
                {t(`reviewDesk.decide.${action}`)}
              </Button>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('reviewDesk.panel.noDecisions')}</Typography.Text>
        )}
      </section>

      <section aria-labelledby="desk-reviews">
        <Typography.Title level={2} id="desk-reviews" style={{ fontSize: 16 }}>
          {t('reviewDesk.panel.reviews')}
        </Typography.Title>
        {review.reviews.length ? (
          <Row gutter={[12, 12]}>
            {review.reviews.map((answer) => (
              <Col key={answer.id} xs={24} md={12}>
                <ExpertCard review={answer} />
              </Col>
            ))}
          </Row>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reviewDesk.panel.noReviews')} />
        )}
      </section>

      <section aria-labelledby="desk-trail">
        <Typography.Title level={2} id="desk-trail" style={{ fontSize: 16 }}>
          {t('reviewDesk.panel.trail')}
        </Typography.Title>
        {review.events.length ? (
          <Timeline
            items={review.events.map((event) => ({
              key: event.id,
              // The time inside the item: a title column would take half a phone's width.
              content: (
                <div>
                  <Typography.Text strong>{t(`review.actions.${event.action}`)}</Typography.Text>
                  <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 13 }}>
                    {formatDateTime(event.created_at)}
                  </Typography.Text>
                  <div>
                    <Typography.Text type="secondary">
                      {t('reviewDesk.event.by', { role: t(`review.roles.${event.role}`), name: event.actor_name })}
                      {event.from_status !== event.to_status &&
                        ` · ${t('reviewDesk.event.moved', { from: t(`metadata.status.${event.from_status}`), to: t(`metadata.status.${event.to_status}`) })}`}
                    </Typography.Text>
                  </div>
                  {event.comment && <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{event.comment}</Typography.Paragraph>}
                </div>
              ),
            }))}
          />
        ) : (
          <Typography.Text type="secondary">{t('reviewDesk.panel.noEvents')}</Typography.Text>
        )}
      </section>

      {deciding === 'invite' ? (
        <InviteExpertsModal review={review} title={title} onClose={() => setDeciding(null)} onDone={reload} />
      ) : (
        deciding && <DecisionModal action={deciding} review={review} title={title} onClose={() => setDeciding(null)} onDone={reload} />
      )}
    </Flex>
  );
}

function Facts({ review }: { review: ReviewState }) {
  const { t } = useTranslation();
  const topic = review.topic_review_status;
  const items = [
    { key: 'status', label: t('reviewDesk.columns.status'), children: <Tag>{t(`metadata.status.${review.status}`)}</Tag> },
    { key: 'label', label: t('reviewDesk.columns.label'), children: review.label ? t(`review.labels.${review.label}`) : '—' },
    { key: 'round', label: t('reviewDesk.panel.round'), children: review.review_round },
    { key: 'preReview', label: t('reviewDesk.columns.preReview'), children: review.is_pre_review ? t('reviewDesk.preReviewDone') : t('reviewDesk.preReviewNotDone') },
    { key: 'topic', label: t('reviewDesk.panel.topic'), children: topic ? t(`reviewDesk.panel.topicStates.${topic}`) : t('reviewDesk.panel.noTopic') },
  ];
  if (review.published_at) items.push({ key: 'published', label: t('reviewDesk.panel.publishedAt'), children: formatDate(review.published_at) });
  if (review.embargo_until) items.push({ key: 'embargo', label: t('reviewDesk.panel.embargoUntil'), children: formatDate(review.embargo_until) });
  if (review.unpublish_reason) items.push({ key: 'unpublish', label: t('reviewDesk.panel.unpublishReason'), children: review.unpublish_reason });
  return <Descriptions size="small" bordered column={{ xs: 1, sm: 2 }} items={items} />;
}

/** One expert's invitation and answer. */
function ExpertCard({ review }: { review: Review }) {
  const { t } = useTranslation();
  const answered = !!review.answered_at;
  const outcome = answered ? t(`review.labels.${review.label}`) : t(`reviewDesk.review.states.${review.review_status}`, { defaultValue: t('review.labels.notReviewed') });
  const color = review.review_status === 'pass' ? 'green' : review.review_status === 'no_pass' ? 'red' : answered ? 'orange' : undefined;
  return (
    <Card size="small" title={review.expert_name} extra={<Tag color={color}>{outcome}</Tag>} data-testid="expert-answer" style={{ height: '100%' }}>
      <Flex wrap gap={4} style={{ marginBottom: 8 }}>
        <Tag>{t('reviewDesk.review.roundTag', { round: review.round })}</Tag>
        {review.after_modification && <Tag color="purple">{t('reviewDesk.review.afterModification')}</Tag>}
        {answered && <Tag>{review.signed ? t('reviewDesk.review.signed') : t('reviewDesk.review.unsigned')}</Tag>}
      </Flex>
      {answered && (
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} ellipsis={{ rows: 6, expandable: true }}>
          {review.content || t('reviewDesk.review.noComment')}
        </Typography.Paragraph>
      )}
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'deadline', label: t('reviewDesk.review.deadline'), children: formatDate(review.deadline) },
          { key: 'opened', label: t('reviewDesk.review.opened'), children: review.opened_at ? formatDateTime(review.opened_at) : t('reviewDesk.review.notYet') },
          { key: 'answered', label: t('reviewDesk.review.answered'), children: review.answered_at ? formatDateTime(review.answered_at) : t('reviewDesk.review.notYet') },
        ]}
      />
    </Card>
  );
}

/** Confirms one decision, with the comment it needs; a 409 (someone decided first) says so and reloads the panel. */
function DecisionModal({
  action,
  review,
  title,
  onClose,
  onDone,
}: {
  action: Exclude<DeskAction, 'invite'>;
  review: ReviewState;
  title: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ content: string }>();
  const { busy, send } = useDeskStep();
  const needsComment = DECISIONS_NEEDING_COMMENT.includes(action as ReviewAction);
  const hasComment = action !== 'receive' && action !== 'pre_review';
  const commentLabel = action === 'unpublish' ? t('reviewDesk.confirm.reason') : needsComment ? t('reviewDesk.confirm.comment') : t('reviewDesk.confirm.commentOptional');
  const move = checkTransition(review.status, action, ['staff']);
  const from = t(`metadata.status.${review.status}`);
  const body = move.ok && move.to ? t('reviewDesk.confirm.body', { from, to: t(`metadata.status.${move.to}`) }) : t('reviewDesk.confirm.bodySameState', { from });

  const submit = async () => {
    const { content = '' } = hasComment ? await form.validateFields() : { content: '' };
    // The status seen here goes with the decision: if someone else decided meanwhile, the server answers 409.
    await send(() => reviewDeskApi.decide(review.id, action === 'pre_review' ? { is_pre_review: true } : { review_status: action, content, from_status: review.status }), {
      form: hasComment ? form : undefined,
      labels: { content: commentLabel, review_status: t('reviewDesk.panel.decisions') },
      success: t('reviewDesk.done', { action: t(`reviewDesk.decide.${action}`) }),
      onClose,
      onDone,
    });
  };

  return (
    <Modal
      open
      title={t('reviewDesk.confirm.title', { action: t(`reviewDesk.decide.${action}`), title })}
      okText={t(`reviewDesk.decide.${action}`)}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: DANGEROUS.includes(action), loading: busy }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>{body}</Typography.Paragraph>
      {hasComment && (
        <Form form={form} layout="vertical" initialValues={{ content: '' }}>
          <Form.Item
            name="content"
            label={commentLabel}
            rules={[
              { required: needsComment, whitespace: true, message: action === 'unpublish' ? t('reviewDesk.confirm.reasonRequired') : t('reviewDesk.confirm.commentRequired') },
              { max: REVIEW_COMMENT_MAX, message: t('review.validation.commentTooLong') },
            ]}
          >
            <Input.TextArea rows={5} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
