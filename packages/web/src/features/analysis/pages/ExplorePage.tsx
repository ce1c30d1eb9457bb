import { Button, Card, Input, Typography, type TableColumnsType } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import { PageTitle } from '../../orders/components/common';
import { analysisApi, analysisKeys, methodName, type AnalysisMethod, type MethodQuery } from '../api';
import { MethodSummary, MethodTable } from '../components/MethodTable';
import { AuthorName, MethodDetail } from '../components/MethodDetail';

/** /analyze/exploredways: the public methods (the data centre's and users'), searched, each opened, run or forked. */
export default function ExplorePage() {
  const { run, message, t } = useFeedback();
  const isPhone = useIsPhone();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState<MethodQuery>({ page: 1, pageSize: 10 });
  const [opened, setOpened] = useState<AnalysisMethod | null>(null);
  const [forking, setForking] = useState(false);

  const fork = async (method: AnalysisMethod) => {
    setForking(true);
    const copy = await run(() => analysisApi.fork(method.id));
    setForking(false);
    if (!copy) return;
    message.success(t('analysisUi.explore.forked', { name: methodName(copy) }));
    await queryClient.invalidateQueries({ queryKey: analysisKeys.all });
    navigate('/analyze');
  };

  const open = (method: AnalysisMethod) => (
    <Button size={isPhone ? 'middle' : 'small'} onClick={() => setOpened(method)} aria-label={t('analysisUi.common.openNamed', { name: methodName(method) })}>
      {t('analysisUi.common.open')}
    </Button>
  );
  const columns: TableColumnsType<AnalysisMethod> = [
    {
      title: t('analysisUi.common.name'),
      dataIndex: 'name',
      render: (_, method) => (
        <MethodSummary
          method={method}
          name={
            <Typography.Link strong onClick={() => setOpened(method)}>
              {methodName(method)}
            </Typography.Link>
          }
          below={
            isPhone && (
              <Typography.Text type="secondary">
                <AuthorName method={method} /> · {t('analysisUi.common.usesCount', { count: method.uses })} · {t('analysisUi.common.forksCount', { count: method.forks })}
              </Typography.Text>
            )
          }
        />
      ),
    },
    { title: t('analysisUi.common.author'), key: 'author', width: 180, responsive: ['md'], render: (_, method) => <AuthorName method={method} /> },
    { title: t('analysisUi.common.uses'), dataIndex: 'uses', width: 80, responsive: ['md'] },
    { title: t('analysisUi.common.forks'), dataIndex: 'forks', width: 80, responsive: ['lg'] },
    { title: t('analysisUi.common.actions'), key: 'actions', width: 100, responsive: ['md'], render: (_, method) => open(method) },
  ];

  return (
    <Card title={<PageTitle>{t('analysisUi.explore.title')}</PageTitle>}>
      <Typography.Paragraph type="secondary">{t('analysisUi.explore.intro')}</Typography.Paragraph>
      <Input.Search
        allowClear
        enterButton={t('analysisUi.explore.searchButton')}
        placeholder={t('analysisUi.explore.search')}
        aria-label={t('analysisUi.explore.search')}
        maxLength={200}
        onSearch={(search) => setQuery({ ...query, page: 1, search: search.trim() || undefined })}
        style={{ maxWidth: 480, marginBottom: 16 }}
      />
      <MethodTable query={query} onQuery={setQuery} columns={columns} emptyText={t('analysisUi.explore.empty')} />
      {opened && (
        <MethodDetail
          method={opened}
          onClose={() => setOpened(null)}
          actions={
            <>
              {!opened.is_mine && (
                <Button loading={forking} onClick={() => fork(opened)}>
                  {t('analysisUi.explore.fork')}
                </Button>
              )}
              <Button type="primary" onClick={() => navigate(`/analyze/run/${opened.id}`)}>
                {t('analysisUi.common.run')}
              </Button>
            </>
          }
        />
      )}
    </Card>
  );
}
