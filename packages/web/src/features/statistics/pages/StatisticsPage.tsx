import { Card, Col, Empty, Flex, Result, Row, Segmented, Statistic, Table, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { countryName } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { loadChunk } from '../../../app/lazy';
import { useIsPhone } from '../../../components/useIsPhone';
import { ApiError } from '../../metadata/api';
import { landingPath, PageTitle } from '../../orders/components/common';
import { ordersApi, ordersKeys, type Statistics } from '../../orders/api';
import { LoadFailed } from '../components';
import { fillSeries, type Period } from '../series';

// ECharts comes with this chunk only, once there is something to draw.
const UsageChart = lazy(() => loadChunk(() => import('../UsageChart')));

type CountryRow = Statistics['countries'][number] & { name: string };

/** /metadata/statistics/:id: a dataset's views, downloads and orders, over time and by country (its creator and staff). */
export default function StatisticsPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const [by, setBy] = useState<Period>('day');
  const statistics = useQuery({
    queryKey: ordersKeys.statistics(id, by),
    queryFn: () => ordersApi.statistics(id, by),
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  // The reply carries the record's titles: reading the record itself would count the owner's or staff's look as a view.
  const title = statistics.data && ((pageLanguage === 'en' && statistics.data.title_en) || statistics.data.title || id);

  const series = useMemo(() => fillSeries(statistics.data?.series ?? [], statistics.data?.by ?? by), [statistics.data, by]);
  const names = useMemo(() => ({ views: t('statistics.views'), downloads: t('statistics.downloads'), orders: t('statistics.orders') }), [t]);
  const countries = useMemo<CountryRow[]>(
    () =>
      (statistics.data?.countries ?? [])
        .map((row) => ({ ...row, name: row.country ? countryName(row.country, pageLanguage) : t('statistics.record.unknownCountry') }))
        .sort((a, b) => b.downloads + b.orders - (a.downloads + a.orders) || a.name.localeCompare(b.name, pageLanguage)),
    [statistics.data, t],
  );

  const heading = <PageTitle>{t('statistics.record.title')}</PageTitle>;
  if (statistics.error) {
    const status = statistics.error instanceof ApiError ? statistics.error.status : 0;
    return (
      <Card title={heading}>
        {status === 403 ? (
          <Result status="403" title={t('statistics.record.forbidden')} />
        ) : status === 404 ? (
          <Result status="404" title={t('statistics.record.notFound')} />
        ) : (
          <LoadFailed onRetry={() => void statistics.refetch()} />
        )}
      </Card>
    );
  }

  const data = statistics.data;
  const isEmpty = data !== undefined && data.series.length === 0 && data.countries.length === 0 && !data.totals.views && !data.totals.downloads && !data.totals.orders;
  const columns: TableColumnsType<CountryRow> = [
    { title: t('statistics.record.country'), dataIndex: 'name' },
    // On a phone the three columns share the width; elsewhere the counts keep a column of their own size.
    { title: t('statistics.downloads'), dataIndex: 'downloads', align: 'right', width: isPhone ? undefined : 120 },
    { title: t('statistics.orders'), dataIndex: 'orders', align: 'right', width: isPhone ? undefined : 120 },
  ];

  return (
    <Card title={heading} extra={!isPhone && <Link to="/metadata/published">{t('statistics.record.backToList')}</Link>} loading={!data}>
      <Flex vertical gap={24}>
        {title && (
          <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
            <a href={landingPath(id)}>{title}</a>
          </Typography.Title>
        )}
        {data && (
          <Row gutter={[16, 16]} role="group" aria-label={t('statistics.record.totals')}>
            {(['views', 'downloads', 'orders'] as const).map((key) => (
              <Col key={key} xs={8}>
                <Card size="small" data-testid={`total-${key}`}>
                  <Statistic title={names[key]} value={data.totals[key]} />
                </Card>
              </Col>
            ))}
          </Row>
        )}
        {isEmpty ? (
          <Empty description={t('statistics.record.empty')} />
        ) : (
          data && (
            <>
              <section aria-labelledby="usage-over-time">
                <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
                  <Typography.Title level={3} id="usage-over-time" style={{ fontSize: 16, margin: 0 }}>
                    {t('statistics.record.overTime')}
                  </Typography.Title>
                  <Segmented<Period>
                    value={by}
                    onChange={setBy}
                    options={[
                      { value: 'day', label: t('statistics.record.byDay') },
                      { value: 'month', label: t('statistics.record.byMonth') },
                    ]}
                  />
                </Flex>
                {series.length === 0 ? (
                  <Empty description={t('statistics.record.noSeries')} />
                ) : (
                  <Suspense fallback={<Typography.Text type="secondary">{t('statistics.record.chartLoading')}</Typography.Text>}>
                    <UsageChart
                      series={series}
                      names={names}
                      isPhone={isPhone}
                      label={t('statistics.record.chartLabel', { first: series[0]!.period, last: series[series.length - 1]!.period })}
                    />
                  </Suspense>
                )}
              </section>
              <section aria-labelledby="usage-by-country">
                <Typography.Title level={3} id="usage-by-country" style={{ fontSize: 16, marginTop: 0 }}>
                  {t('statistics.record.countries')}
                </Typography.Title>
                <Table<CountryRow>
                  rowKey="country"
                  size="small"
                  columns={columns}
                  dataSource={countries}
                  scroll={{ x: 'max-content' }}
                  pagination={{ pageSize: 20, hideOnSinglePage: true }}
                  locale={{ emptyText: t('statistics.record.noCountries') }}
                />
                <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
                  {t('statistics.record.countriesNote')}
                </Typography.Paragraph>
              </section>
            </>
          )
        )}
      </Flex>
    </Card>
  );
}
