import { Alert, Card, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAX_PAGE_SIZE } from '@portal/shared';
import { refusal } from '../../../api/form';
import { formatCount, formatDateTime } from '../../../components/format';
import { useTableList, viewerPath } from '../api';

/**
 * The Data Files tab's list of the record's tables (issue 20), each a link to the viewer. Read-only
 * and without tables, nothing is shown; otherwise a line says how a table is made.
 */
export function RecordTables({ metadataId, readOnly }: { metadataId: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const { data, error, isPending } = useTableList({ page: 1, pageSize: MAX_PAGE_SIZE, metadataId });
  const tables = data?.results ?? [];
  if (readOnly && !isPending && !error && tables.length === 0) return null;
  return (
    <Card size="small" title={<span id="record-tables">{t('tablesUi.record.title')}</span>} aria-labelledby="record-tables" role="region">
      {error ? (
        <Alert type="error" showIcon title={refusal(error, t('tablesUi.loadFailed'))} />
      ) : (
        <List
          loading={isPending}
          dataSource={tables}
          locale={{ emptyText: t('tablesUi.record.none') }}
          renderItem={(table) => (
            <List.Item>
              <List.Item.Meta
                title={<Link to={viewerPath(metadataId, table.code)}>{table.name}</Link>}
                description={t('tablesUi.record.size', { rows: formatCount(table.rows), columns: formatCount(table.columns), created: formatDateTime(table.created) })}
              />
            </List.Item>
          )}
        />
      )}
      {!readOnly && <Typography.Text type="secondary">{t('tablesUi.record.how')}</Typography.Text>}
    </Card>
  );
}
