import { Button, Card, Flex, List, Result, Segmented, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type CSSProperties, type HTMLAttributes } from 'react';
import { DEFAULT_PAGE_SIZE, type User } from '@portal/shared';
import { formatDateTime } from '../../components/format';
import { tablePagination } from '../../components/table-pagination';
import { useIsPhone } from '../../components/useIsPhone';
import { useFeedback } from '../metadata/components/useFeedback';
import { landingPath } from '../orders/components/common';
import { PageTitle } from '../review/components/common';
import { doiApi, doiKeys, type DoiRegistration, type DoiRegistrationPage, type RegistrationQuery } from './api';
import { canRetry, registrationState, STATE_COLORS } from './registrationState';

/** Long DOIs, addresses in DataCite's reasons: broken anywhere rather than widening the page. */
const WRAP: CSSProperties = { overflowWrap: 'anywhere', wordBreak: 'break-word' };
/** The record column's least width: below it the table scrolls inside its own box. */
const RECORD_MIN_WIDTH = 230;

/**
 * /review/doi-registrations (staff): where each DOI the data centre assigns stands with DataCite
 * (`GET /api/metadata/doi-registrations/`), the failed ones first, with DataCite's answer and a retry
 * (`POST .../metadata/{id}/doi-registration/retry/`). A table on a wide screen, a list on a phone.
 * The menu offers it to staff only and the server answers staff only; anyone else who types the
 * address is told so instead of getting a page of errors.
 */
export default function DoiRegistrationsPage({ user }: { user: User }) {
  const { t } = useFeedback();
  if (!user.is_staff)
    return (
      <Card title={<PageTitle>{t('doi.ui.title')}</PageTitle>}>
        <Result status="403" title={t('account.forbidden')} />
      </Card>
    );
  return <Registrations />;
}

function Registrations() {
  const { t, run, message } = useFeedback();
  const isPhone = useIsPhone();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState<RegistrationQuery>({ page: 1, pageSize: DEFAULT_PAGE_SIZE, failing: true });
  // Records whose retry is on its way (a retry covers all of a record's registrations).
  const [retrying, setRetrying] = useState<ReadonlySet<string>>(new Set());
  const list = useQuery({ queryKey: doiKeys.list(query), queryFn: () => doiApi.list(query) });

  const retry = async (row: DoiRegistration) => {
    const id = row.metadata_id;
    if (retrying.has(id)) return;
    setRetrying((ids) => new Set(ids).add(id));
    try {
      const reply = await run(() => doiApi.retry(id));
      if (!reply) return;
      // The rows as the server now has them, in every list read so far (a refetch of the failed
      // ones would drop the row the staff member just fixed before they see it fixed).
      const fresh = (r: DoiRegistration) => reply.registrations.find((n) => n.doi === r.doi) ?? r;
      queryClient.setQueriesData<DoiRegistrationPage>({ queryKey: ['doi', 'registrations'] }, (page) => page && { ...page, results: page.results.map(fresh) });
      void queryClient.invalidateQueries({ queryKey: doiKeys.record(id) });
      const now = fresh(row);
      if (now.status === 'done') message.success(t('doi.ui.retried', { doi: now.doi, state: t(`doi.ui.states.${registrationState(now)}`) }));
      else message.error(t('doi.ui.retryFailed', { doi: now.doi, problem: now.problem }));
    } finally {
      setRetrying((ids) => {
        const next = new Set(ids);
        next.delete(id);
        return next;
      });
    }
  };

  const record = (row: DoiRegistration) => (
    <Space orientation="vertical" size={2} style={WRAP}>
      {row.title === null ? (
        <Typography.Text type="secondary">{t('doi.ui.recordDeleted')}</Typography.Text>
      ) : (
        <a href={landingPath(row.metadata_id)}>{row.title || t('reviewDesk.untitled')}</a>
      )}
      <Typography.Text copyable code style={WRAP} data-testid="doi">
        {row.doi}
      </Typography.Text>
    </Space>
  );
  const state = (row: DoiRegistration) => {
    const value = registrationState(row);
    return (
      <Tooltip title={t(`doi.ui.stateHelp.${value}`)}>
        <Tag color={STATE_COLORS[value]} data-testid="doi-state" data-state={value}>
          {t(`doi.ui.states.${value}`)}
        </Tag>
      </Tooltip>
    );
  };
  const tries = (row: DoiRegistration) => (
    <Space orientation="vertical" size={0}>
      <Typography.Text>{t('doi.ui.attempts', { count: row.attempts })}</Typography.Text>
      {row.last_attempt_at && <Typography.Text type="secondary">{t('doi.ui.lastTry', { time: formatDateTime(row.last_attempt_at) })}</Typography.Text>}
      {row.next_attempt_at && <Typography.Text type="secondary">{t('doi.ui.nextTry', { time: formatDateTime(row.next_attempt_at) })}</Typography.Text>}
      {row.registered_at && <Typography.Text type="secondary">{t('doi.ui.registeredOn', { time: formatDateTime(row.registered_at) })}</Typography.Text>}
    </Space>
  );
  // The server's sentence in the reader's language, then DataCite's own reasons as it wrote them (English).
  const answer = (row: DoiRegistration) =>
    row.problem || row.errors.length ? (
      <div style={WRAP} data-testid="doi-answer">
        {row.problem && <Typography.Text type={registrationState(row) === 'givenUp' ? 'danger' : 'warning'}>{row.problem}</Typography.Text>}
        {row.errors.length > 0 && (
          <ul lang="en" style={{ margin: '4px 0 0', paddingInlineStart: 18 }}>
            {row.errors.map((error, index) => (
              <li key={index}>
                <Typography.Text type="secondary">
                  {[error.status, error.source].filter(Boolean).join(' · ')}
                  {(error.status || error.source) && ': '}
                  {error.title}
                </Typography.Text>
              </li>
            ))}
          </ul>
        )}
      </div>
    ) : (
      <Typography.Text type="secondary">—</Typography.Text>
    );
  const action = (row: DoiRegistration) => {
    if (!canRetry(registrationState(row))) return null;
    const busy = retrying.has(row.metadata_id);
    return (
      <Button size="small" type="primary" loading={busy} disabled={busy} onClick={() => void retry(row)} aria-label={t('doi.ui.retryLabel', { doi: row.doi })}>
        {t('doi.ui.retry')}
      </Button>
    );
  };

  const columns: TableColumnsType<DoiRegistration> = [
    { title: t('doi.ui.columns.record'), key: 'record', render: (_, row) => record(row) },
    { title: t('doi.ui.columns.state'), key: 'state', width: 140, render: (_, row) => state(row) },
    { title: t('doi.ui.columns.tries'), key: 'tries', width: 190, render: (_, row) => tries(row) },
    { title: t('doi.ui.columns.answer'), key: 'answer', width: 280, render: (_, row) => answer(row) },
    { title: t('doi.ui.columns.actions'), key: 'actions', width: 100, render: (_, row) => action(row) },
  ];
  const { current, pageSize, total, onChange, showSizeChanger } = tablePagination(list.data?.count, query, setQuery);
  const pagination = {
    current,
    pageSize,
    total,
    onChange,
    showSizeChanger,
    showTotal: (count: number) => t('doi.ui.total', { count }),
    size: isPhone ? ('small' as const) : undefined,
  };
  const emptyText = query.failing ? t('doi.ui.empty.failing') : t('doi.ui.empty.all');

  return (
    <Card title={<PageTitle>{t('doi.ui.title')}</PageTitle>} styles={isPhone ? { body: { padding: 12 } } : undefined}>
      <Typography.Paragraph type="secondary">{t('doi.ui.intro')}</Typography.Paragraph>
      <Flex wrap gap={8} align="center" style={{ marginBottom: 16 }}>
        <Typography.Text id="doi-filter">{t('doi.ui.filters.label')}</Typography.Text>
        <Segmented
          aria-labelledby="doi-filter"
          value={query.failing ? 'failing' : 'all'}
          onChange={(value) => setQuery({ ...query, page: 1, failing: value === 'failing' })}
          options={[
            { value: 'failing', label: t('doi.ui.filters.failing') },
            { value: 'all', label: t('doi.ui.filters.all') },
          ]}
        />
      </Flex>
      {list.isError && (
        <Typography.Paragraph type="danger" role="alert">
          {list.error.message}
        </Typography.Paragraph>
      )}
      {isPhone ? (
        // On a phone each registration is a small block: nothing is cut off, nothing scrolls sideways.
        <List<DoiRegistration>
          loading={list.isLoading}
          dataSource={list.data?.results ?? []}
          rowKey="doi"
          locale={{ emptyText }}
          pagination={pagination}
          renderItem={(row) => (
            <List.Item style={{ display: 'block' }} data-testid="doi-registration">
              <Flex vertical gap={6}>
                {record(row)}
                <Flex wrap gap={8} align="center">
                  {state(row)}
                  {action(row)}
                </Flex>
                {tries(row)}
                {(row.problem || row.errors.length > 0) && answer(row)}
              </Flex>
            </List.Item>
          )}
        />
      ) : (
        <Table<DoiRegistration>
          rowKey="doi"
          loading={list.isLoading}
          columns={columns}
          dataSource={list.data?.results ?? []}
          locale={{ emptyText }}
          pagination={pagination}
          onRow={() => ({ 'data-testid': 'doi-registration' }) as HTMLAttributes<HTMLElement>}
          scroll={{ x: RECORD_MIN_WIDTH + columns.reduce((sum, column) => sum + (typeof column.width === 'number' ? column.width : 0), 0) }}
        />
      )}
    </Card>
  );
}
