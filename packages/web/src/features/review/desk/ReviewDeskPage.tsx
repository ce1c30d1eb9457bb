import { Button, Card, Flex, Input, List, Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FUND_THIRD_POLE, FUND_THREE_POLE, type MetadataStatus } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { useIsPhone } from '../../../components/useIsPhone';
import { AdminTabs } from '../../admin/AdminTabs';
import { StaffOnly } from '../../admin/StaffOnly';
import { ReviewPanel } from './ReviewPanel';
import { reviewDeskApi, titleOf, type ReviewDeskItem } from './reviewDeskApi';

/** The statuses a submission passes through after it left the draft (spec section 4), in the order of the workflow. */
const DESK_STATUSES: MetadataStatus[] = ['submitted', 'receive', 'invited', 'underReview', 'approved', 'published', 'NotPublished', 'refuse', 'cancelled'];
/** The two programme funds of spec section 9. */
const PROGRAMME_FUNDS = [FUND_THREE_POLE, FUND_THIRD_POLE];
const PAGE_SIZE = 20;
const DESK_REFRESH_MS = 60_000;
const DAY_MS = 86_400_000;
/** The title column's least width: the table scrolls sideways only on a screen narrower than its columns need. */
const TITLE_MIN_WIDTH = 300;

/** Whole days since the submission (0 on its day). */
const ageInDays = (submittedAt: string | null) => (submittedAt ? Math.max(0, Math.floor((Date.now() - new Date(submittedAt).getTime()) / DAY_MS)) : null);

/** /admin/review: the data centre's review desk (staff only). */
export default function ReviewDeskPage() {
  return (
    <StaffOnly returnTo="/admin/review">
      <ReviewDesk />
    </StaffOnly>
  );
}

function ReviewDesk() {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [status, setStatus] = useState<string>('');
  const [fund, setFund] = useState<string>('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReviewDeskItem | null>(null);

  // The desk follows what others do (a new submission, an expert's answer, a colleague's decision):
  // read again every minute while the tab is shown, and whenever staff come back to it.
  const list = useQuery({
    queryKey: ['reviewDesk', 'list', { status, fund, search, page }],
    queryFn: () => reviewDeskApi.list({ status: status || undefined, fund: fund || undefined, search, page, pageSize: PAGE_SIZE }, t('errors.generic')),
    refetchInterval: DESK_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
  // The programme funds are named as the editor names them: from the fund entries, in the page's language.
  const funds = useQuery({
    queryKey: ['reviewDesk', 'funds'],
    queryFn: () => Promise.all(PROGRAMME_FUNDS.map((id) => reviewDeskApi.fund(id, t('errors.generic')))),
    staleTime: Infinity,
  });
  const fundName = (id: string) => {
    const entry = funds.data?.find((f) => f.id === id);
    return entry ? (pageLanguage === 'en' ? entry.name_en || entry.name : entry.name) : id;
  };

  const change =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const openButton = (item: ReviewDeskItem) => (
    <Button
      type="link"
      onClick={() => setSelected(item)}
      style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}
      aria-label={t('reviewDesk.open', { title: titleOf(item) || t('reviewDesk.untitled') })}
    >
      {titleOf(item) || t('reviewDesk.untitled')}
    </Button>
  );
  const statusTag = (value: string) => <Tag>{t(`metadata.status.${value}`)}</Tag>;
  const labelText = (item: ReviewDeskItem) => (item.label ? t(`review.labels.${item.label}`) : '—');
  const ageText = (item: ReviewDeskItem) => {
    const days = ageInDays(item.submitted_at);
    return days === null ? '—' : t('reviewDesk.ageDays', { count: days });
  };
  const expertsText = (item: ReviewDeskItem) => t('reviewDesk.expertsCount', { answered: item.experts_answered, invited: item.experts_invited });
  const preReviewText = (item: ReviewDeskItem) => (item.is_pre_review ? t('reviewDesk.preReviewDone') : t('reviewDesk.preReviewNotDone'));

  const columns: TableColumnsType<ReviewDeskItem> = [
    // No width: the title takes what the other columns leave and wraps (a long title on one line
    // pushed the last columns out of a 1280 px screen, issue 16).
    { title: t('reviewDesk.columns.title'), key: 'title', render: (_, item) => openButton(item) },
    { title: t('reviewDesk.columns.owner'), dataIndex: 'owner_name', width: 140 },
    { title: t('reviewDesk.columns.status'), dataIndex: 'status', width: 130, render: statusTag },
    { title: t('reviewDesk.columns.label'), key: 'label', width: 170, render: (_, item) => labelText(item) },
    { title: t('reviewDesk.columns.age'), key: 'age', width: 110, render: (_, item) => ageText(item) },
    { title: t('reviewDesk.columns.experts'), key: 'experts', width: 120, render: (_, item) => expertsText(item) },
    { title: t('reviewDesk.columns.preReview'), key: 'preReview', width: 100, render: (_, item) => preReviewText(item) },
  ];
  const pagination = {
    current: page,
    pageSize: PAGE_SIZE,
    total: list.data?.count ?? 0,
    onChange: setPage,
    showTotal: (count: number) => t('reviewDesk.total', { count }),
    size: isPhone ? ('small' as const) : undefined,
  };

  return (
    <Card
      title={
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          {t('reviewDesk.title')}
        </Typography.Title>
      }
      styles={isPhone ? { body: { padding: 12 } } : undefined}
    >
      <AdminTabs active="/admin/review" />
      <Flex wrap gap={12} style={{ marginBottom: 16 }}>
        <Select
          aria-label={t('reviewDesk.filters.status')}
          value={status}
          onChange={change(setStatus)}
          style={{ width: isPhone ? '100%' : 200 }}
          options={[{ value: '', label: t('reviewDesk.filters.allStatuses') }, ...DESK_STATUSES.map((value) => ({ value, label: t(`metadata.status.${value}`) }))]}
        />
        <Select
          aria-label={t('reviewDesk.filters.fund')}
          value={fund}
          onChange={change(setFund)}
          style={{ width: isPhone ? '100%' : 260 }}
          options={[{ value: '', label: t('reviewDesk.filters.allFunds') }, ...PROGRAMME_FUNDS.map((id) => ({ value: id, label: fundName(id) }))]}
        />
        <Input.Search
          aria-label={t('reviewDesk.filters.search')}
          placeholder={t('reviewDesk.filters.search')}
          allowClear
          onSearch={change(setSearch)}
          style={{ width: isPhone ? '100%' : 280 }}
        />
      </Flex>
      {list.isError && <Typography.Paragraph type="danger">{list.error.message}</Typography.Paragraph>}
      {isPhone ? (
        // On a phone each submission is a small card: nothing is cut off, nothing scrolls sideways.
        <List<ReviewDeskItem>
          loading={list.isLoading}
          dataSource={list.data?.results ?? []}
          rowKey="id"
          locale={{ emptyText: t('reviewDesk.empty') }}
          pagination={pagination}
          renderItem={(item) => (
            <List.Item style={{ display: 'block' }}>
              <div style={{ fontWeight: 500, marginBottom: 4 }}>{openButton(item)}</div>
              <Flex wrap gap={6} align="center" style={{ marginBottom: 4 }}>
                {statusTag(item.status)}
                <Typography.Text type="secondary">{labelText(item)}</Typography.Text>
              </Flex>
              <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                {[
                  `${t('reviewDesk.columns.owner')}: ${item.owner_name}`,
                  `${t('reviewDesk.columns.age')}: ${ageText(item)}`,
                  `${t('reviewDesk.columns.experts')}: ${expertsText(item)}`,
                  `${t('reviewDesk.columns.preReview')}: ${preReviewText(item)}`,
                ].join(' · ')}
              </Typography.Text>
            </List.Item>
          )}
        />
      ) : (
        <Table<ReviewDeskItem>
          rowKey="id"
          loading={list.isLoading}
          columns={columns}
          dataSource={list.data?.results ?? []}
          locale={{ emptyText: t('reviewDesk.empty') }}
          pagination={pagination}
          scroll={{ x: TITLE_MIN_WIDTH + columns.reduce((sum, column) => sum + (typeof column.width === 'number' ? column.width : 0), 0) }}
        />
      )}
      <ReviewPanel item={selected} onClose={() => setSelected(null)} />
    </Card>
  );
}
