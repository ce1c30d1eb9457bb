import { Button, Card, Popconfirm, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { useFeedback } from '../../metadata/components/useFeedback';
import { PageTitle } from '../../orders/components/common';
import { analysisApi, analysisKeys, methodName, type AnalysisMethod, type MethodQuery } from '../api';
import { MethodSummary, MethodTable } from '../components/MethodTable';
import { VisibilityTag } from '../components/MethodDetail';
import { MethodEditor } from '../components/MethodEditor';

/** /analyze: the caller's analysis methods, to write, edit (each edit a new version), run and delete. */
export default function MyMethodsPage() {
  const { run, message, t } = useFeedback();
  const isPhone = useIsPhone();
  // Touch-sized on a phone.
  const buttonSize = isPhone ? 'middle' : 'small';
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [query, setQuery] = useState<MethodQuery>({ page: 1, pageSize: 10, mine: true });
  // undefined: no editor; null: a new method.
  const [editing, setEditing] = useState<AnalysisMethod | null | undefined>(undefined);

  const remove = async (method: AnalysisMethod) => {
    // A deletion answers 204 with no body: success is the call's end, not what it returned.
    const removed = await run(async () => {
      await analysisApi.remove(method.id);
      return true;
    });
    if (!removed) return;
    message.success(t('analysisUi.my.deleted', { name: methodName(method) }));
    await queryClient.invalidateQueries({ queryKey: analysisKeys.all });
  };

  const actions = (method: AnalysisMethod) => (
    <Space wrap size={4}>
      <Button type="primary" size={buttonSize} onClick={() => navigate(`/analyze/run/${method.id}`)} aria-label={t('analysisUi.common.runNamed', { name: methodName(method) })}>
        {t('analysisUi.common.run')}
      </Button>
      <Button size={buttonSize} onClick={() => setEditing(method)} aria-label={t('analysisUi.common.editNamed', { name: methodName(method) })}>
        {t('analysisUi.common.edit')}
      </Button>
      <Popconfirm
        title={t('analysisUi.my.deleteConfirm', { name: methodName(method) })}
        okText={t('analysisUi.common.yes')}
        cancelText={t('analysisUi.common.no')}
        onConfirm={() => remove(method)}
      >
        <Button size={buttonSize} danger aria-label={t('analysisUi.common.deleteNamed', { name: methodName(method) })}>
          {t('analysisUi.common.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );

  const columns: TableColumnsType<AnalysisMethod> = [
    {
      title: t('analysisUi.common.name'),
      dataIndex: 'name',
      render: (_, method) => (
        <MethodSummary
          method={method}
          name={
            <Space wrap size={4}>
              <Typography.Text strong>{methodName(method)}</Typography.Text>
              <VisibilityTag method={method} />
              {method.forked_from && <Tag>{t('analysisUi.common.forked')}</Tag>}
            </Space>
          }
          below={
            isPhone && (
              <>
                <Typography.Text type="secondary">
                  {t('analysisUi.common.versionShort', { version: method.version })} · {t('analysisUi.common.usesCount', { count: method.uses })}
                </Typography.Text>
                {actions(method)}
              </>
            )
          }
        />
      ),
    },
    { title: t('analysisUi.common.versionLabel'), dataIndex: 'version', width: 90, responsive: ['md'] },
    { title: t('analysisUi.common.uses'), dataIndex: 'uses', width: 90, responsive: ['md'] },
    { title: t('analysisUi.common.updated'), dataIndex: 'updated_at', width: 180, responsive: ['lg'], render: (value: string) => formatDateTime(value) },
    { title: t('analysisUi.common.actions'), key: 'actions', width: 220, responsive: ['md'], render: (_, method) => actions(method) },
  ];

  return (
    <Card
      title={<PageTitle>{t('analysisUi.my.title')}</PageTitle>}
      extra={
        <Button type="primary" onClick={() => setEditing(null)}>
          {t('analysisUi.my.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('analysisUi.my.intro')}</Typography.Paragraph>
      <MethodTable query={query} onQuery={setQuery} columns={columns} emptyText={t('analysisUi.my.empty')} />
      {editing !== undefined && <MethodEditor method={editing ?? undefined} onClose={() => setEditing(undefined)} onSaved={() => setEditing(undefined)} />}
    </Card>
  );
}
