import { Card, Space, Switch, Typography, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import { PageTitle } from '../../orders/components/common';
import { analysisApi, analysisKeys, methodName, type AnalysisMethod, type MethodQuery } from '../api';
import { MethodTable } from '../components/MethodTable';
import { AuthorName } from '../components/MethodDetail';

/** /analyze/methodsharing: the caller's methods, each published (shown in Explore, run and forked by others) or not, with their forks. */
export default function SharePage() {
  const { run, message, t } = useFeedback();
  const isPhone = useIsPhone();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState<MethodQuery>({ page: 1, pageSize: 10, mine: true });
  const [changing, setChanging] = useState<string | null>(null);

  const publish = async (method: AnalysisMethod, isPublic: boolean) => {
    setChanging(method.id);
    const saved = await run(() => analysisApi.update(method.id, { public: isPublic }));
    setChanging(null);
    if (!saved) return;
    message.success(t(isPublic ? 'analysisUi.share.published' : 'analysisUi.share.unpublished', { name: methodName(saved) }));
    await queryClient.invalidateQueries({ queryKey: analysisKeys.all });
  };

  const columns: TableColumnsType<AnalysisMethod> = [
    {
      title: t('analysisUi.common.name'),
      dataIndex: 'name',
      render: (_, method) => (
        <Space orientation="vertical" size={2}>
          <Typography.Text strong>{methodName(method)}</Typography.Text>
          <Typography.Text type="secondary">
            {t('analysisUi.common.versionShort', { version: method.version })} · {t('analysisUi.common.usesCount', { count: method.uses })}
            {isPhone && ` · ${t('analysisUi.common.forksCount', { count: method.forks })}`}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('analysisUi.common.forks'), dataIndex: 'forks', width: 80, responsive: ['md'] },
    {
      title: t('analysisUi.share.public'),
      key: 'public',
      width: isPhone ? 72 : 120,
      render: (_, method) => (
        <Switch
          checked={method.public}
          loading={changing === method.id}
          onChange={(checked) => void publish(method, checked)}
          aria-label={t('analysisUi.share.publicNamed', { name: methodName(method) })}
        />
      ),
    },
  ];

  return (
    <Card title={<PageTitle>{t('analysisUi.share.title')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('analysisUi.share.intro')}</Typography.Paragraph>
      <MethodTable
        query={query}
        onQuery={setQuery}
        columns={columns}
        emptyText={t('analysisUi.my.empty')}
        expandable={{ expandedRowRender: (method) => <ForkList method={method} />, rowExpandable: (method) => method.forks > 0 }}
      />
    </Card>
  );
}

/** The public forks of a method, by whom and when; private forks are counted only. */
function ForkList({ method }: { method: AnalysisMethod }) {
  const { t } = useFeedback();
  const query: MethodQuery = { page: 1, pageSize: 50, forked_from: method.id };
  const forks = useQuery({ queryKey: analysisKeys.methods(query), queryFn: () => analysisApi.methods(query) });
  const shown = forks.data?.results ?? [];
  return (
    <section aria-label={t('analysisUi.share.forksOf', { name: methodName(method) })}>
      {forks.isLoading ? (
        <Typography.Text type="secondary">{t('analysisUi.common.loading')}</Typography.Text>
      ) : shown.length ? (
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {shown.map((fork) => (
            <li key={fork.id}>
              {methodName(fork)}{' '}
              <Typography.Text type="secondary">
                (<AuthorName method={fork} />, {formatDateTime(fork.created_at)})
              </Typography.Text>
            </li>
          ))}
        </ul>
      ) : (
        <Typography.Text type="secondary">{t('analysisUi.share.noPublicForks')}</Typography.Text>
      )}
      {forks.data && method.forks > forks.data.count && (
        <Typography.Text style={{ display: 'block' }} type="secondary">
          {t('analysisUi.share.privateForks', { count: method.forks - forks.data.count })}
        </Typography.Text>
      )}
    </section>
  );
}
