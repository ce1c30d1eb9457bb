import { Card, Col, Descriptions, Flex, Row, Table, Tabs, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APPLY_ROLES, DEFAULT_PAGE_SIZE, type ApplyRole } from '@portal/shared';
import { tablePagination } from '../../../components/table-pagination';
import { useIsPhone } from '../../../components/useIsPhone';
import { datasetTitle, landingPath, PageTitle } from '../../orders/components/common';
import { statisticsApi, statisticsKeys, type ApplyDataset, type ApplyQuery, type RoleCounts } from '../api';
import { LoadFailed } from '../components';

/** What each dataset counts, and each role over its datasets. */
const DATASET_COUNTS = ['views', 'downloads', 'orders', 'waiting'] as const;
const ROLE_COUNTS = ['datasets', ...DATASET_COUNTS] as const;
/** The title column's least width: the table scrolls sideways only on a screen narrower than its columns need. */
const TITLE_MIN_WIDTH = 280;

/**
 * /metadata/apply-statistics: the caller's published datasets as data provider, author and assessor
 * (spec section 2), each role's totals and one role's datasets a page at a time.
 */
export default function ApplyStatisticsPage() {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [query, setQuery] = useState<ApplyQuery>({ role: 'provider', page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const { data, error, isFetching, refetch } = useQuery({
    queryKey: statisticsKeys.apply(query),
    queryFn: () => statisticsApi.applyStatistics(query),
    placeholderData: keepPreviousData,
  });

  // The statistics call answers the record's creator (and staff) only: a link where it would open.
  const statisticsLink = (row: ApplyDataset) => query.role === 'provider' && <Link to={`/metadata/statistics/${row.metadata_id}`}>{t('statistics.link')}</Link>;
  const columns: TableColumnsType<ApplyDataset> = [
    {
      title: t('statistics.apply.dataset'),
      key: 'title',
      render: (_, row) => (
        <Flex vertical gap={4}>
          <a href={landingPath(row.metadata_id)}>{datasetTitle(row)}</a>
          {/* On a phone the count columns are hidden: the counts and the link stand under the title. */}
          {isPhone && <Typography.Text type="secondary">{DATASET_COUNTS.map((key) => `${t(`statistics.${key}`)} ${row[key]}`).join(' · ')}</Typography.Text>}
          {isPhone && statisticsLink(row)}
        </Flex>
      ),
    },
    ...DATASET_COUNTS.map((key) => ({
      title: t(`statistics.${key}`),
      dataIndex: key,
      align: 'right' as const,
      width: 110,
      responsive: ['md' as const],
    })),
  ];
  if (query.role === 'provider') {
    columns.push({ title: t('statistics.apply.actions'), key: 'actions', width: 110, responsive: ['md'], render: (_, row) => statisticsLink(row) });
  }

  return (
    <Card title={<PageTitle>{t('statistics.apply.title')}</PageTitle>}>
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('statistics.apply.intro')}
        </Typography.Paragraph>
        {error && !data && <LoadFailed onRetry={() => void refetch()} />}
        {data && (
          <Row gutter={[16, 16]}>
            {data.roles.map((counts) => (
              <Col key={counts.role} xs={24} md={8}>
                <RoleCard counts={counts} />
              </Col>
            ))}
          </Row>
        )}
        <Tabs
          activeKey={query.role}
          onChange={(role) => setQuery({ ...query, role: role as ApplyRole, page: 1 })}
          items={APPLY_ROLES.map((role) => ({ key: role, label: t(`statistics.apply.roles.${role}`) }))}
        />
        {error && data && <LoadFailed onRetry={() => void refetch()} />}
        <Table<ApplyDataset>
          rowKey="metadata_id"
          loading={isFetching && !error}
          columns={columns}
          dataSource={data?.results ?? []}
          // The title column wraps (a long title on one line pushed the last columns out of a 1280 px
          // screen, issue 16); on a phone it is the one column.
          scroll={isPhone ? undefined : { x: TITLE_MIN_WIDTH + columns.reduce((sum, column) => sum + (typeof column.width === 'number' ? column.width : 0), 0) }}
          locale={{ emptyText: t(`statistics.apply.empty.${query.role}`) }}
          pagination={tablePagination(data?.count, query, setQuery)}
        />
      </Flex>
    </Card>
  );
}

/** One role's counts over all its published datasets. */
function RoleCard({ counts }: { counts: RoleCounts }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t(`statistics.apply.roles.${counts.role}`)} data-testid={`role-${counts.role}`}>
      <Descriptions size="small" column={{ xs: 2, sm: 3, md: 1 }} items={ROLE_COUNTS.map((key) => ({ key, label: t(`statistics.${key}`), children: counts[key] }))} />
    </Card>
  );
}
