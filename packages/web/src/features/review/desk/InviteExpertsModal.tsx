import { Alert, DatePicker, Form, Input, Modal, Select, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REVIEW_COMMENT_MAX } from '@portal/shared';
import { reviewDeskApi, type ExpertCandidate, type ReviewState } from './reviewDeskApi';
import { useSettled } from '../../../components/useSettled';
import { useDeskStep } from './useDeskStep';

interface InviteForm {
  experts: string[];
  deadline: Dayjs;
  message: string;
  reason: string;
}

/** Days the experts get by default. */
const DEFAULT_DEADLINE_DAYS = 14;

/**
 * Invites experts (POST /metadata/invite-experts/): found by name, affiliation or specialty among
 * active users (never by e-mail), a deadline (two weeks ahead by default, no past day), a message,
 * and, while the project leaders have not reviewed project data, the reason required to go ahead.
 */
export function InviteExpertsModal({ review, title, onClose, onDone }: { review: ReviewState; title: string; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<InviteForm>();
  const { busy, send } = useDeskStep();
  const [typed, setTyped] = useState('');
  const search = useSettled(typed.trim());
  // Candidates chosen stay named after the search moves on.
  const [chosen, setChosen] = useState<Map<string, ExpertCandidate>>(new Map());
  const leadersWaiting = review.topic_review_status === 'waiting';
  const candidates = useQuery({
    queryKey: ['reviewDesk', 'experts', search],
    enabled: search.length > 0,
    queryFn: () => reviewDeskApi.experts(search, t('errors.generic')),
  });
  const labels = {
    experts: t('reviewDesk.invite.experts'),
    deadline: t('reviewDesk.invite.deadline'),
    message: t('reviewDesk.invite.message'),
    reason: t('reviewDesk.invite.reason'),
    metadata: t('reviewDesk.panel.openRecord'),
  };

  const shown = new Map(chosen);
  for (const candidate of candidates.data?.results ?? []) shown.set(candidate.id, candidate);
  const nameOf = (candidate: ExpertCandidate) => candidate.realname || candidate.username;

  const submit = async () => {
    const values = await form.validateFields();
    // A 409: someone decided first, or the leaders' step changed meanwhile.
    await send(
      () =>
        reviewDeskApi.invite({
          metadata: review.id,
          experts: values.experts,
          deadline: values.deadline.format('YYYY-MM-DD'),
          message: values.message ?? '',
          reason: leadersWaiting ? (values.reason ?? '') : '',
        }),
      { form, labels, success: t('reviewDesk.invite.sent'), onClose, onDone },
    );
  };

  return (
    <Modal
      open
      title={t('reviewDesk.invite.title', { title })}
      okText={t('reviewDesk.invite.send')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: busy }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<InviteForm> form={form} layout="vertical" initialValues={{ experts: [], deadline: dayjs().add(DEFAULT_DEADLINE_DAYS, 'day'), message: '', reason: '' }}>
        <Form.Item
          name="experts"
          label={labels.experts}
          extra={t('reviewDesk.invite.expertsHelp')}
          rules={[{ required: true, type: 'array', min: 1, message: t('reviewDesk.invite.expertsRequired') }]}
        >
          <Select<string[]>
            mode="multiple"
            showSearch={{ filterOption: false, onSearch: setTyped, searchValue: typed }}
            placeholder={t('reviewDesk.invite.expertsPlaceholder')}
            notFoundContent={candidates.isFetching ? <Spin size="small" /> : search ? t('reviewDesk.invite.noMatch') : null}
            onChange={(ids) => {
              setChosen(new Map(ids.map((id) => [id, shown.get(id)!]).filter(([, candidate]) => candidate) as [string, ExpertCandidate][]));
              setTyped('');
            }}
            options={[...shown.values()].map((candidate) => ({ value: candidate.id, label: nameOf(candidate), candidate }))}
            optionRender={(option) => {
              const candidate = (option.data as { candidate: ExpertCandidate }).candidate;
              return (
                <div style={{ whiteSpace: 'normal' }}>
                  <div>{nameOf(candidate)}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {[candidate.affiliation, candidate.specialty].filter(Boolean).join(' · ')}
                  </Typography.Text>
                </div>
              );
            }}
          />
        </Form.Item>
        <Form.Item name="deadline" label={labels.deadline} rules={[{ required: true, message: t('reviewDesk.invite.deadlineRequired') }]}>
          <DatePicker format="YYYY-MM-DD" allowClear={false} disabledDate={(day) => day.isBefore(dayjs(), 'day')} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="message" label={labels.message} rules={[{ max: REVIEW_COMMENT_MAX, message: t('review.validation.commentTooLong') }]}>
          <Input.TextArea rows={3} placeholder={t('reviewDesk.invite.messagePlaceholder')} />
        </Form.Item>
        {leadersWaiting && (
          <>
            <Alert type="warning" showIcon title={t('reviewDesk.invite.reasonHelp')} style={{ marginBottom: 12 }} />
            <Form.Item
              name="reason"
              label={labels.reason}
              rules={[
                { required: true, whitespace: true, message: t('reviewDesk.invite.reasonRequired') },
                { max: REVIEW_COMMENT_MAX, message: t('review.validation.commentTooLong') },
              ]}
            >
              <Input.TextArea rows={3} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
