import { Alert, Card, Col, Row, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pageLanguage } from '../../../app/i18n';
import { formatDate } from '../../../components/format';
import { PageSpinner } from '../../../components/PageSpinner';
import { useIsPhone } from '../../../components/useIsPhone';
import { ApiError, metadataApi, recordKey } from '../../metadata/api';
import { createEditorSession } from '../../metadata/components/editorSession';
import { FilesTab } from '../../metadata/components/FilesTab';
import { OverviewTab } from '../../metadata/components/OverviewTab';

export { LabelTag } from './LabelTag';

/** A record's title in the page's language: its other version's title when the record is written in the other one. */
export function titleOf(record: { title: string; translation_title: string; language: string }, untitled: string): string {
  return (record.language !== pageLanguage && record.translation_title) || record.title || untitled;
}

/** Whether a 'YYYY-MM-DD' deadline has passed (the deadline day itself still counts). */
export function isOverdue(deadline: string): boolean {
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  return deadline < day;
}

/** An expert's deadline, in the page's language, marked when it has passed. */
export function DeadlineText({ deadline }: { deadline: string }) {
  const { t } = useTranslation();
  const overdue = isOverdue(deadline);
  return (
    <Space size={4} wrap>
      <Typography.Text type={overdue ? 'danger' : undefined}>{t('review.ui.invited.deadlineOn', { date: formatDate(`${deadline}T00:00:00`) })}</Typography.Text>
      {overdue && <Tag color="red">{t('review.ui.invited.overdue')}</Tag>}
    </Space>
  );
}

/**
 * The record as its reviewer reads it: the editor's read-only document (or `document`, the record
 * as submitted where the page has it), then its data files and documents with their download
 * links (the server lets a reviewer read them while they may).
 */
export function RecordReader({ id, document }: { id: string; document?: ReactNode }) {
  const { t } = useTranslation();
  const [session] = useState(createEditorSession);
  const { data: record, error, isLoading } = useQuery({ queryKey: recordKey(id), queryFn: () => metadataApi.get(id) });
  if (isLoading) return <PageSpinner />;
  if (error || !record) return <Alert type="warning" showIcon title={error instanceof ApiError && error.message ? error.message : t('review.ui.advice.recordHidden')} />;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="review-record">
      {document ?? (
        <Card size="small" title={t('review.ui.advice.document')}>
          <OverviewTab record={record} readOnly session={session} />
        </Card>
      )}
      <Card size="small" title={t('review.ui.advice.files')}>
        <FilesTab record={record} readOnly kind="data" />
      </Card>
      <Card size="small" title={t('review.ui.advice.documents')}>
        <FilesTab record={record} readOnly kind="document" />
      </Card>
    </Space>
  );
}

/** A page's heading in the card's title slot, as the other personal-centre pages have it. */
export const PageTitle = ({ children }: { children: string }) => <h1 style={{ margin: 0, fontSize: 20, whiteSpace: 'normal' }}>{children}</h1>;

/**
 * A reviewer's page: the record as a document beside the answer (desktop, the answer kept in view
 * while the record scrolls), the record below the answer on a phone.
 */
export function ReviewLayout({ title, recordId, answer, document }: { title: ReactNode; recordId: string; answer: ReactNode; document?: ReactNode }) {
  const isPhone = useIsPhone();
  return (
    <Card
      size={isPhone ? 'small' : 'default'}
      title={
        <Space wrap style={{ paddingBlock: 8 }}>
          {title}
        </Space>
      }
    >
      <Row gutter={[24, 16]}>
        <Col xs={{ span: 24, order: 2 }} lg={{ span: 14, order: 1 }}>
          <RecordReader id={recordId} document={document} />
        </Col>
        <Col xs={{ span: 24, order: 1 }} lg={{ span: 10, order: 2 }}>
          <div style={isPhone ? undefined : { position: 'sticky', top: 16 }}>{answer}</div>
        </Col>
      </Row>
    </Card>
  );
}
