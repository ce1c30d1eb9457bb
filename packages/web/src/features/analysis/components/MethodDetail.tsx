import { Descriptions, Drawer, Flex, Space, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/format';
import { useIsPhone } from '../../../components/useIsPhone';
import { methodDescription, methodName, type AnalysisMethod } from '../api';

/** A query as written: monospace, its lines kept, scrolled inside its box when wide. */
export function SqlText({ sql }: { sql: string }) {
  return (
    <pre style={{ margin: 0, padding: 12, background: 'rgba(0, 0, 0, 0.04)', borderRadius: 6, overflowX: 'auto', fontSize: 13, whiteSpace: 'pre', maxHeight: 360 }}>
      <code>{sql}</code>
    </pre>
  );
}

/** Who wrote a method: its author's name, or the data centre for its own. */
export function AuthorName({ method }: { method: Pick<AnalysisMethod, 'author'> }) {
  const { t } = useTranslation();
  return method.author ? <>{method.author.name}</> : <Tag color="blue">{t('analysisUi.common.dataCentre')}</Tag>;
}

/** Public or private, as a tag. */
export function VisibilityTag({ method }: { method: Pick<AnalysisMethod, 'public'> }) {
  const { t } = useTranslation();
  return method.public ? <Tag color="green">{t('analysisUi.common.public')}</Tag> : <Tag>{t('analysisUi.common.private')}</Tag>;
}

/** One method read in full (its text, parameters, chart, author and uses) in a drawer, with the caller's actions below. */
export function MethodDetail({ method, onClose, actions }: { method: AnalysisMethod; onClose: () => void; actions: ReactNode }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const description = methodDescription(method);
  return (
    <Drawer
      open
      onClose={onClose}
      title={methodName(method)}
      size={isPhone ? '100%' : 720}
      destroyOnHidden
      styles={isPhone ? { body: { padding: 12 } } : undefined}
      footer={
        <Flex justify="end" gap={8} wrap>
          {actions}
        </Flex>
      }
    >
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Descriptions
          size="small"
          column={1}
          bordered
          layout={isPhone ? 'vertical' : 'horizontal'}
          items={[
            { key: 'author', label: t('analysisUi.common.author'), children: <AuthorName method={method} /> },
            {
              key: 'version',
              label: t('analysisUi.common.versionLabel'),
              children: t('analysisUi.common.versionAt', { version: method.version, date: formatDateTime(method.updated_at) }),
            },
            { key: 'uses', label: t('analysisUi.common.uses'), children: method.uses },
            { key: 'forks', label: t('analysisUi.common.forks'), children: method.forks },
          ]}
        />
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} type={description ? undefined : 'secondary'}>
          {description || t('analysisUi.detail.noDescription')}
        </Typography.Paragraph>
        <section aria-labelledby="method-parameters">
          <Typography.Title level={3} id="method-parameters" style={{ fontSize: 16 }}>
            {t('analysisUi.form.parameters')}
          </Typography.Title>
          <Table
            size="small"
            rowKey="name"
            pagination={false}
            dataSource={method.parameters}
            locale={{ emptyText: t('analysisUi.detail.noParameters') }}
            columns={[
              { title: t('analysisUi.form.parameterName'), dataIndex: 'name' },
              { title: t('analysisUi.form.parameterType'), dataIndex: 'type', render: (type: string) => t(`analysisUi.parameterTypes.${type}`) },
              { title: t('analysisUi.form.parameterDefault'), dataIndex: 'default', render: (value: unknown) => (value === null ? '' : String(value)) },
            ]}
          />
        </section>
        <section aria-labelledby="method-sql">
          <Typography.Title level={3} id="method-sql" style={{ fontSize: 16 }}>
            {t('analysisUi.form.sql')}
          </Typography.Title>
          <SqlText sql={method.sql} />
        </section>
        {method.chart && (
          <Typography.Text type="secondary">
            {t('analysisUi.detail.chart', { type: t(`analysisUi.chartTypes.${method.chart.type}`), x: method.chart.x, y: method.chart.y.join(', ') })}
          </Typography.Text>
        )}
      </Space>
    </Drawer>
  );
}
