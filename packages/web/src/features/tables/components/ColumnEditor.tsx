import { Input, Select, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIELD_NAME_MAX, fieldNameProblem, TABLE_COLUMN_TYPES, type TableColumnType } from '@portal/shared';
import type { TableColumn } from '../api';

type TextKey = 'field' | 'display_name' | 'display_name_en' | 'unit' | 'note';
type Edited = TableColumn & { index: number };

/** The problem of each column's field name (its i18n key and parameters), the shared rule's, and a name used twice. */
function fieldProblems(columns: TableColumn[]): ({ key: string; params: Record<string, string | number> } | null)[] {
  type Problem = { key: string; params: Record<string, string | number> };
  const counts = new Map<string, number>();
  for (const column of columns) counts.set(column.field.trim().toLowerCase(), (counts.get(column.field.trim().toLowerCase()) ?? 0) + 1);
  return columns.map((column): Problem | null => {
    const field = column.field.trim();
    const key = fieldNameProblem(field);
    if (key) return { key, params: { field, max: FIELD_NAME_MAX } };
    if ((counts.get(field.toLowerCase()) ?? 0) > 1) return { key: 'tables.fieldNameTwice', params: { field } };
    return null;
  });
}

/**
 * The proposed columns, each editable: field name (English letters and digits), display names in
 * both languages, unit, note and type. A field name that breaks the shared rule, or a required text
 * left empty, is marked where it is; the form's rule as a whole is checked before the import.
 */
export function ColumnEditor({ columns, onChange }: { columns: TableColumn[]; onChange: (columns: TableColumn[]) => void }) {
  const { t } = useTranslation();
  const problems = fieldProblems(columns);
  const change = (index: number, values: Partial<TableColumn>) => onChange(columns.map((column, at) => (at === index ? { ...column, ...values } : column)));
  const label = (what: string, index: number) => t('tablesUi.import.cellLabel', { what, n: index + 1 });

  const text = (key: TextKey, width: number, required = false): TableColumnsType<Edited>[number] => ({
    key,
    title: t(`tablesUi.import.columns.${key}`),
    width,
    render: (_, column) => {
      const problem = key === 'field' ? problems[column.index] : null;
      const empty = required && column[key].trim() === '';
      return (
        <>
          <Input
            value={column[key]}
            // Field names are ASCII; the texts' limit is in code points, which the shared rule counts.
            maxLength={key === 'field' ? FIELD_NAME_MAX : undefined}
            status={problem || empty ? 'error' : undefined}
            aria-label={label(t(`tablesUi.import.columns.${key}`), column.index)}
            aria-invalid={problem || empty ? true : undefined}
            onChange={(event) => change(column.index, { [key]: event.target.value })}
          />
          {problem && (
            <Typography.Text type="danger" style={{ display: 'block', fontSize: 12, whiteSpace: 'normal' }}>
              {t(problem.key, problem.params)}
            </Typography.Text>
          )}
        </>
      );
    },
  });

  const tableColumns: TableColumnsType<Edited> = [
    { key: 'n', title: '#', width: 48, render: (_, column) => column.index + 1 },
    text('field', 170, true),
    text('display_name', 170, true),
    text('display_name_en', 170),
    text('unit', 100),
    text('note', 170),
    {
      key: 'type',
      title: t('tablesUi.import.columns.type'),
      width: 140,
      render: (_, column) => (
        <Select<TableColumnType>
          value={column.type}
          style={{ width: '100%' }}
          aria-label={label(t('tablesUi.import.columns.type'), column.index)}
          options={TABLE_COLUMN_TYPES.map((type) => ({ value: type, label: t(`tablesUi.types.${type}`) }))}
          onChange={(type) => change(column.index, { type })}
        />
      ),
    },
  ];

  return (
    <Table<Edited>
      rowKey="index"
      size="small"
      scroll={{ x: 'max-content' }}
      columns={tableColumns}
      dataSource={columns.map((column, index) => ({ ...column, index }))}
      pagination={columns.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
    />
  );
}
