import { Alert, Button, Card, Checkbox, Descriptions, Form, Input, Radio, Result, Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { EXPERT_OUTCOMES, REVIEW_COMMENT_MAX } from '@portal/shared';
import { formatDate, formatDateTime } from '../../../components/format';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError } from '../../metadata/api';
import { useFeedback } from '../../metadata/components/useFeedback';
import { reviewApi, reviewKeys, type Review, type ReviewAnswer } from '../api';
import { DeadlineText, LabelTag, PageTitle, ReviewLayout, isOverdue, titleOf } from '../components/common';
import { SubmittedRecord } from '../components/SubmittedRecord';

/**
 * /review/advice/:id: the expert's review. Opening it is what moves the record to "under review".
 * The record, as a document with its files, sits beside the answer (below it on a phone).
 */
export default function AdvicePage() {
  const { id = '' } = useParams();
  const { t } = useFeedback();
  const {
    data: review,
    error,
    isLoading,
  } = useQuery({
    queryKey: reviewKeys.review(id),
    queryFn: () => reviewApi.open(id),
    refetchOnWindowFocus: false,
  });
  // The record as submitted for this round (and the one before): none for a round from before they were kept.
  const snapshot = useQuery({ queryKey: reviewKeys.snapshot(id), queryFn: () => reviewApi.snapshot(id), retry: false, enabled: !!review && !error });
  if (isLoading || snapshot.isLoading) return <PageSpinner />;
  if (error || !review) {
    const text = error instanceof ApiError && error.message ? error.message : t('errors.formGeneric');
    return <Result status={error instanceof ApiError && error.status === 403 ? '403' : 'warning'} title={text} />;
  }

  return (
    <ReviewLayout
      recordId={review.metadata}
      title={
        <>
          <PageTitle>{t('review.ui.advice.heading', { title: titleOf(review.record, t('review.ui.untitled')) })}</PageTitle>
          {review.after_modification && <Tag color="orange">{t('review.ui.invited.afterModification')}</Tag>}
        </>
      }
      answer={<AnswerPanel review={review} />}
      document={snapshot.data?.current ? <SubmittedRecord current={snapshot.data.current} previous={snapshot.data.previous} /> : undefined}
    />
  );
}

/** The invitation's message and deadline, then the answer or the form to give / change it. */
function AnswerPanel({ review }: { review: Review }) {
  const { t } = useFeedback();
  const [editing, setEditing] = useState(false);
  const answered = (EXPERT_OUTCOMES as readonly string[]).includes(review.review_status);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('review.ui.advice.message')}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          {review.message ? (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{review.message}</Typography.Paragraph>
          ) : (
            <Typography.Text type="secondary">—</Typography.Text>
          )}
          {!answered && review.can_answer ? (
            <Typography.Text strong>{t('review.ui.advice.deadline', { date: formatDate(`${review.deadline}T00:00:00`) })}</Typography.Text>
          ) : (
            <DeadlineText deadline={review.deadline} />
          )}
          {!answered && review.can_answer && isOverdue(review.deadline) && <Alert type="warning" showIcon title={t('review.ui.advice.overdue')} />}
        </Space>
      </Card>
      {review.review_status === 'declined' && <Alert type="info" showIcon title={t('review.ui.advice.declined')} />}
      {answered && !editing && (
        <Card
          size="small"
          title={t('review.ui.advice.answer')}
          data-testid="review-answer"
          extra={
            review.can_answer && (
              <Button size="small" onClick={() => setEditing(true)}>
                {t('review.ui.advice.change')}
              </Button>
            )
          }
        >
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'outcome', label: t('review.ui.advice.outcome'), children: <LabelTag label={review.label} /> },
              { key: 'comment', label: t('review.ui.advice.comment'), children: <span style={{ whiteSpace: 'pre-wrap' }}>{review.content}</span> },
              { key: 'signed', label: t('review.ui.advice.signed'), children: review.signed ? t('review.ui.advice.signedYes') : t('review.ui.advice.signedNo') },
              { key: 'at', label: t('review.ui.history.answeredAt'), children: formatDateTime(review.answered_at) },
            ]}
          />
          {!review.can_answer && <Typography.Text type="secondary">{t('review.ui.advice.closed')}</Typography.Text>}
        </Card>
      )}
      {review.can_answer && (!answered || editing) && <AnswerForm review={review} onDone={() => setEditing(false)} onCancel={answered ? () => setEditing(false) : undefined} />}
    </Space>
  );
}

function AnswerForm({ review, onDone, onCancel }: { review: Review; onDone: () => void; onCancel?: () => void }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ReviewAnswer>();
  const [busy, setBusy] = useState(false);
  const answered = (EXPERT_OUTCOMES as readonly string[]).includes(review.review_status);
  const labels = { review_status: t('review.ui.advice.outcome'), content: t('review.ui.advice.comment'), signed: t('review.ui.advice.signed') };

  const submit = async (values: ReviewAnswer) => {
    setBusy(true);
    const saved = await run(() => reviewApi.answer(review.id, { ...values, content: values.content.trim() }), form, labels);
    setBusy(false);
    if (!saved) return;
    queryClient.setQueryData(reviewKeys.review(review.id), saved);
    await queryClient.invalidateQueries({ queryKey: ['review', 'invited'] });
    await queryClient.invalidateQueries({ queryKey: ['review', 'history'] });
    message.success(t('review.ui.advice.saved'));
    onDone();
  };

  return (
    <Card size="small" title={t('review.ui.advice.form')}>
      <Form<ReviewAnswer>
        form={form}
        layout="vertical"
        requiredMark
        initialValues={answered ? { review_status: review.review_status as ReviewAnswer['review_status'], content: review.content, signed: review.signed } : { signed: false }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item name="review_status" label={t('review.ui.advice.outcome')} rules={[{ required: true, message: t('review.ui.advice.outcomeRequired') }]}>
          <Radio.Group>
            <Space orientation="vertical">
              {EXPERT_OUTCOMES.map((outcome) => (
                <Radio key={outcome} value={outcome}>
                  {t(`review.labels.${outcome}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="content"
          label={t('review.ui.advice.comment')}
          rules={[
            { required: true, whitespace: true, message: t('review.validation.commentRequired') },
            { max: REVIEW_COMMENT_MAX, message: t('review.validation.commentTooLong') },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 6, maxRows: 20 }} count={{ show: true, max: REVIEW_COMMENT_MAX }} />
        </Form.Item>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('review.ui.advice.commentHelp')}
        </Typography.Paragraph>
        <Form.Item name="signed" valuePropName="checked" extra={t('review.ui.advice.signedHelp')}>
          <Checkbox>{t('review.ui.advice.signed')}</Checkbox>
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('review.ui.advice.submit')}
          </Button>
          {onCancel && <Button onClick={onCancel}>{t('review.ui.advice.cancelChange')}</Button>}
        </Space>
      </Form>
    </Card>
  );
}
