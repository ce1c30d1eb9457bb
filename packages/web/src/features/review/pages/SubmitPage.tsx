import { Alert, Button, Card, Form, Input, Radio, Result, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { LEADER_OUTCOMES, REVIEW_COMMENT_MAX } from '@portal/shared';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError, metadataApi, recordKey } from '../../metadata/api';
import { useFeedback } from '../../metadata/components/useFeedback';
import { reviewApi, reviewKeys, type TopicAnswer } from '../api';
import { LabelTag, PageTitle, ReviewLayout } from '../components/common';

/** /review/submit/:id: a project leader reads a submitted record of their topic and passes it or not. */
export default function SubmitPage() {
  const { id = '' } = useParams();
  const { t } = useFeedback();
  const { data: state, error, isLoading } = useQuery({ queryKey: reviewKeys.state(id), queryFn: () => reviewApi.state(id) });
  const { data: record } = useQuery({ queryKey: recordKey(id), queryFn: () => metadataApi.get(id), enabled: !!state });
  if (isLoading) return <PageSpinner />;
  if (error || !state) {
    const text = error instanceof ApiError && error.message ? error.message : t('errors.formGeneric');
    return <Result status={error instanceof ApiError && error.status === 403 ? '403' : 'warning'} title={text} />;
  }
  const waiting = state.topic_review_status === 'waiting' && state.actions.includes('topic_pass');
  const title = record ? record.title || t('review.ui.untitled') : '';

  return (
    <ReviewLayout
      recordId={id}
      title={
        <>
          <PageTitle>{title ? t('review.ui.project.heading', { title }) : t('review.ui.project.pageTitle')}</PageTitle>
          <Tag>{t(`metadata.status.${state.status}`)}</Tag>
          {state.topic_review_status && state.topic_review_status !== 'waiting' && <Tag>{t(`review.ui.project.topicStatus.${state.topic_review_status}`)}</Tag>}
          <LabelTag label={state.label} />
        </>
      }
      answer={waiting ? <LeaderForm id={id} /> : <Alert type="info" showIcon title={t('review.ui.project.notWaiting')} />}
    />
  );
}

function LeaderForm({ id }: { id: string }) {
  const { run, message, t } = useFeedback();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form] = Form.useForm<TopicAnswer>();
  const outcome = Form.useWatch('review_status', form);
  const [busy, setBusy] = useState(false);
  const labels = { review_status: t('review.ui.project.decision'), content: t('review.ui.project.comment') };

  const submit = async (values: TopicAnswer) => {
    setBusy(true);
    const saved = await run(() => reviewApi.topicReview(id, { review_status: values.review_status, content: (values.content ?? '').trim() }), form, labels);
    setBusy(false);
    if (!saved) return;
    message.success(t('review.ui.project.done'));
    await queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    void navigate('/review/projectList');
  };

  return (
    <Card size="small" title={t('review.ui.project.decision')}>
      <Form<TopicAnswer> form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="review_status" label={t('review.ui.project.decision')} rules={[{ required: true, message: t('review.ui.advice.outcomeRequired') }]}>
          <Radio.Group>
            {LEADER_OUTCOMES.map((value) => (
              <Radio key={value} value={value}>
                {value === 'pass' ? t('review.ui.project.pass') : t('review.ui.project.noPass')}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="content"
          label={t('review.ui.project.comment')}
          rules={[
            { required: outcome === 'no_pass', whitespace: true, message: t('review.ui.project.commentRequired') },
            { max: REVIEW_COMMENT_MAX, message: t('review.validation.commentTooLong') },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} count={{ show: true, max: REVIEW_COMMENT_MAX }} />
        </Form.Item>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('review.ui.project.commentRequired')}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('review.ui.project.submit')}
        </Button>
      </Form>
    </Card>
  );
}
