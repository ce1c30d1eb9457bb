import { Alert, Button, Card, Popconfirm, Result, Space, Tabs, Tag, Typography } from 'antd';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useBlocker, useParams } from 'react-router';
import { IN_REVIEW_STATUSES, RETURNABLE_STATUSES, type MetadataStatus } from '@portal/shared';
import { PageSpinner } from '../../../components/PageSpinner';
import { useIsPhone } from '../../../components/useIsPhone';
import { useCurrentUser } from '../../account/api';
import { ApiError, metadataApi, recordKey } from '../api';
import { AuthorsTab } from '../components/AuthorsTab';
import { FilesTab } from '../components/FilesTab';
import { KeywordsTab } from '../components/KeywordsTab';
import { OverviewTab } from '../components/OverviewTab';
import { ReferenceTab } from '../components/ReferenceTab';
import { ThumbnailTab } from '../components/ThumbnailTab';
import { TranslationsTab } from '../components/TranslationsTab';
import { createEditorSession, type EditorSession } from '../components/editorSession';
import { useFeedback } from '../components/useFeedback';
import { useReturnToDraft, useSubmitFlow } from '../components/useSubmitFlow';
import { ReviewPanel, useRecordFeedback } from '../../review/components/ReviewPanel';

/** The editor open now; leaving it (not a StrictMode remount) checks whether the draft is empty. */
let openEditor: string | null = null;

/**
 * Leaving the editor of one's own draft that holds nothing deletes it. The Overview's pending
 * save is waited for first; the server then decides from what it stores: it deletes only the
 * caller's draft that is empty and was never changed (so a draft typed into here or in another tab
 * stays). Staff looking at someone else's record never delete it.
 */
async function dropIfEmpty(id: string, userId: string | undefined, session: EditorSession, queryClient: QueryClient) {
  try {
    await session.flush();
    if (!userId) return;
    const record = await metadataApi.get(id);
    if (record.owner !== userId || record.status !== 'draft') return;
    const { deleted } = await metadataApi.dropIfEmpty(id);
    if (!deleted) return;
    queryClient.removeQueries({ queryKey: recordKey(id) });
    await queryClient.invalidateQueries({ queryKey: ['metadata', 'list'] });
  } catch {
    // A record that is gone already, or not ours: nothing to tidy.
  }
}

/** /metadata/edit/:id: the nine tabs of spec section 2; read-only while the record is in review. */
export default function EditPage() {
  const { id = '' } = useParams();
  const { t, modal } = useFeedback();
  const queryClient = useQueryClient();
  const submit = useSubmitFlow();
  const returnToDraft = useReturnToDraft();
  const [tab, setTab] = useState('overview');
  /** The tabs' shared writes: the Overview's pending changes, saved before reading, submitting or leaving. */
  const [session] = useState(createEditorSession);
  const { data: user } = useCurrentUser();
  const isPhone = useIsPhone();
  const { data: record, error, isLoading } = useQuery({ queryKey: recordKey(id), queryFn: () => metadataApi.get(id) });
  // The review's comments, for the creator and staff: a record sent back shows them too.
  const mayReadReview = !!record && !!user && (user.is_staff || record.owner === user.id);
  const { data: feedback } = useRecordFeedback(id, mayReadReview);
  /** Whose editor this is, as the latest render knows it, for the check on leaving. */
  const viewer = useRef<string | undefined>(undefined);
  viewer.current = user?.id;

  useEffect(() => {
    openEditor = id;
    return () => {
      openEditor = null;
      setTimeout(() => {
        if (openEditor !== id) void dropIfEmpty(id, viewer.current, session, queryClient);
      }, 300);
    };
  }, [id, session, queryClient]);

  // Closing or reloading the page: the browser asks first while something is not stored (a field
  // refused, a save on its way, a dialog with something typed in it); the autosaved form's
  // unsaved changes then go out with keepalive requests (values that cannot be saved wait in this
  // browser); nothing is deleted, since the server's answer on emptiness could not be waited for.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!session.unsaved()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    const onPageHide = () => session.autosave?.saveOnUnload();
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [session]);

  // Leaving the editor in the app: what can be saved is saved first; if something still is not
  // stored (a field the server refuses, no connection), the user is asked.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && !!session.unsaved());
  const blocked = useRef(blocker);
  blocked.current = blocker;
  useEffect(() => {
    const blocker = blocked.current;
    if (blocker.state !== 'blocked') return;
    let live = true;
    void session.flush().then(() => {
      if (!live) return;
      const fields = session.unsaved();
      if (!fields) return blocker.proceed();
      modal.confirm({
        title: t('editor.leave.title'),
        content: fields.length ? t('editor.leave.content', { fields: fields.join(t('editor.listSeparator')) }) : t('editor.leave.contentUnknown'),
        okText: t('editor.leave.leave'),
        okButtonProps: { danger: true },
        cancelText: t('editor.leave.stay'),
        onOk: () => {
          session.autosave?.discard();
          blocker.proceed();
        },
        onCancel: () => blocker.reset(),
      });
    });
    return () => {
      live = false;
    };
  }, [blocker.state, session, modal, t]);

  if (isLoading) return <PageSpinner />;
  // A failed refetch (the network back after a cut) keeps the record shown: only a record never read is an error.
  if (!record) {
    const text = error instanceof ApiError && error.message ? error.message : t('metadata.notFound');
    return <Result status={error instanceof ApiError && error.status === 403 ? '403' : 'warning'} title={text} />;
  }

  // A record others may see (published) is still not theirs to edit: the spec's refusal, not the editor.
  if (user && !user.is_staff && record.owner !== user.id) return <Result status="403" title={t('metadata.noRight')} />;

  const readOnly = record.status !== 'draft';
  const props = { record, readOnly };
  const items = [
    { key: 'overview', label: t('editor.tabs.overview'), children: <OverviewTab {...props} session={session} /> },
    { key: 'providers', label: t('editor.tabs.providers'), children: <AuthorsTab {...props} session={session} providers /> },
    { key: 'authors', label: t('editor.tabs.authors'), children: <AuthorsTab {...props} session={session} providers={false} /> },
    { key: 'reference', label: t('editor.tabs.reference'), children: <ReferenceTab {...props} session={session} /> },
    { key: 'keywords', label: t('editor.tabs.keywords'), children: <KeywordsTab {...props} session={session} /> },
    { key: 'thumbnail', label: t('editor.tabs.thumbnail'), children: <ThumbnailTab {...props} /> },
    { key: 'translations', label: t('editor.tabs.translations'), children: <TranslationsTab {...props} session={session} /> },
    { key: 'files', label: t('editor.tabs.files'), children: <FilesTab {...props} kind="data" /> },
    { key: 'documents', label: t('editor.tabs.documents'), children: <FilesTab {...props} kind="document" /> },
  ];

  const flush = () => session.flush();
  // What the record's state means for the reader: published, in review (Return to Draft), or closed.
  const readOnlyText =
    record.status === 'published'
      ? t('editor.readOnly.published')
      : (IN_REVIEW_STATUSES as readonly string[]).includes(record.status)
        ? t('editor.readOnly.inReview')
        : t('editor.readOnly.other', { status: t(`metadata.status.${record.status}`) });
  const returnable = (RETURNABLE_STATUSES as readonly MetadataStatus[]).includes(record.status as MetadataStatus);

  const action = readOnly ? (
    // Only a record still in review can be taken back; a published or closed one is read-only.
    returnable && (
      <Popconfirm title={t('editor.returnConfirm')} okText={t('editor.yes')} cancelText={t('editor.no')} onConfirm={() => returnToDraft(record.id)}>
        <Button>{t('editor.returnDraft')}</Button>
      </Popconfirm>
    )
  ) : (
    <Button type="primary" onClick={() => void submit(record.id, flush)}>
      {t('editor.submit')}
    </Button>
  );

  return (
    // On a phone the action wraps under the title (the card's right-hand slot would cover it) and
    // the card's padding shrinks, so that the fields take the screen's width.
    <Card
      size={isPhone ? 'small' : 'default'}
      title={
        <Space wrap style={{ paddingBlock: isPhone ? 8 : 0 }}>
          <h1 style={{ margin: 0, fontSize: 20 }}>{t('editor.editTitle')}</h1>
          <Tag>{t(`metadata.status.${record.status}`)}</Tag>
          <Typography.Text type="secondary">{t(`metadata.options.language.${record.language}`)}</Typography.Text>
          {isPhone && action}
        </Space>
      }
      extra={isPhone ? undefined : action}
    >
      {readOnly && <Alert type="info" showIcon title={readOnlyText} style={{ marginBottom: 16 }} />}
      {mayReadReview && (readOnly || !!feedback?.count) && <ReviewPanel record={record} feedback={feedback} />}
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          void flush();
          setTab(key);
        }}
        items={items}
        // All nine tabs in one row on a 1280-pixel screen, none hidden behind the overflow menu.
        tabBarGutter={20}
        destroyOnHidden
      />
    </Card>
  );
}
