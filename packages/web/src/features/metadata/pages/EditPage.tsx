import { Alert, Button, Card, Popconfirm, Result, Space, Tabs, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { PageSpinner } from '../../../components/PageSpinner';
import { useCurrentUser } from '../../account/api';
import { ApiError, metadataApi, recordKey } from '../api';
import { AuthorsTab } from '../components/AuthorsTab';
import { FilesTab } from '../components/FilesTab';
import { KeywordsTab } from '../components/KeywordsTab';
import { OverviewTab } from '../components/OverviewTab';
import { ReferenceTab } from '../components/ReferenceTab';
import { ThumbnailTab } from '../components/ThumbnailTab';
import { TranslationsTab } from '../components/TranslationsTab';
import { useFeedback } from '../components/useFeedback';
import { useReturnToDraft, useSubmitFlow } from '../components/useSubmitFlow';

/** The editor open now; leaving it (not a StrictMode remount) checks whether the draft is empty. */
let openEditor: string | null = null;

function dropIfEmpty(id: string) {
  void (async () => {
    try {
      const { is_null: isNull } = await metadataApi.isNull(id);
      if (isNull) await metadataApi.remove(id);
    } catch {
      // A record that is gone already, or not ours: nothing to tidy.
    }
  })();
}

/** /metadata/edit/:id: the nine tabs of spec section 2; read-only while the record is in review. */
export default function EditPage() {
  const { id = '' } = useParams();
  const { t } = useFeedback();
  const submit = useSubmitFlow();
  const returnToDraft = useReturnToDraft();
  const [tab, setTab] = useState('overview');
  /** The Overview's pending changes, saved before submitting or leaving the tab. */
  const flushRef = useRef<(() => Promise<void>) | null>(null);
  const { data: user } = useCurrentUser();
  const { data: record, error, isLoading } = useQuery({ queryKey: recordKey(id), queryFn: () => metadataApi.get(id) });

  useEffect(() => {
    openEditor = id;
    return () => {
      openEditor = null;
      setTimeout(() => {
        if (openEditor !== id) dropIfEmpty(id);
      }, 300);
    };
  }, [id]);

  if (isLoading) return <PageSpinner />;
  if (error || !record) {
    const text = error instanceof ApiError && error.message ? error.message : t('metadata.notFound');
    return <Result status={error instanceof ApiError && error.status === 403 ? '403' : 'warning'} title={text} />;
  }

  // A record others may see (published) is still not theirs to edit: the spec's refusal, not the editor.
  if (user && !user.is_staff && record.owner !== user.id) return <Result status="403" title={t('metadata.noRight')} />;

  const readOnly = record.status !== 'draft';
  const props = { record, readOnly };
  const items = [
    { key: 'overview', label: t('editor.tabs.overview'), children: <OverviewTab {...props} flushRef={flushRef} /> },
    { key: 'providers', label: t('editor.tabs.providers'), children: <AuthorsTab {...props} providers /> },
    { key: 'authors', label: t('editor.tabs.authors'), children: <AuthorsTab {...props} providers={false} /> },
    { key: 'reference', label: t('editor.tabs.reference'), children: <ReferenceTab {...props} /> },
    { key: 'keywords', label: t('editor.tabs.keywords'), children: <KeywordsTab {...props} /> },
    { key: 'thumbnail', label: t('editor.tabs.thumbnail'), children: <ThumbnailTab {...props} /> },
    { key: 'translations', label: t('editor.tabs.translations'), children: <TranslationsTab {...props} /> },
    { key: 'files', label: t('editor.tabs.files'), children: <FilesTab {...props} kind="data" /> },
    { key: 'documents', label: t('editor.tabs.documents'), children: <FilesTab {...props} kind="document" /> },
  ];

  const flush = async () => {
    await flushRef.current?.();
  };

  return (
    <Card
      title={
        <Space wrap>
          <h1 style={{ margin: 0, fontSize: 20 }}>{t('editor.editTitle')}</h1>
          <Tag>{t(`metadata.status.${record.status}`)}</Tag>
          <Typography.Text type="secondary">{t(`metadata.options.language.${record.language}`)}</Typography.Text>
        </Space>
      }
      extra={
        readOnly ? (
          <Popconfirm title={t('editor.returnConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => returnToDraft(record.id)}>
            <Button>{t('editor.returnDraft')}</Button>
          </Popconfirm>
        ) : (
          <Button type="primary" onClick={() => void submit(record.id, flush)}>
            {t('editor.submit')}
          </Button>
        )
      }
    >
      {readOnly && <Alert type="info" showIcon title={t('metadata.readOnly')} style={{ marginBottom: 16 }} />}
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          void flush();
          setTab(key);
        }}
        items={items}
        destroyOnHidden
      />
    </Card>
  );
}
