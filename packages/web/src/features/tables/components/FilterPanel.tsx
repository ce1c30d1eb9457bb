import { Button, Col, Flex, Form, Input, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageLanguage } from '../../../app/i18n';
import { columnTitle, isRangeColumn, type TableColumn, type TableFilters } from '../api';

/** What a range filter's box takes: a number's keyboard for numbers, the browser's date and time pickers for dates and times. */
const INPUT_TYPES: Partial<Record<TableColumn['type'], { type: string; inputMode?: 'numeric' | 'decimal' }>> = {
  integer: { type: 'text', inputMode: 'numeric' },
  float: { type: 'text', inputMode: 'decimal' },
  date: { type: 'date' },
  datetime: { type: 'datetime-local' },
};

/** The i18n key of what is wrong with a bound typed into a number column's filter (the server checks it again), or null. */
function boundProblem(column: TableColumn, value: string | undefined): string | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  if (column.type === 'integer' && !/^[+-]?\d+$/.test(text)) return 'tablesUi.filters.notInteger';
  if (column.type === 'float' && !Number.isFinite(Number(text))) return 'tablesUi.filters.notNumber';
  return null;
}

/**
 * A filter per column by its type: a range (from, to) for numbers, dates and times, a text to
 * contain for text; applied together by the button, so that a table of millions of rows is asked
 * once, not at every key.
 */
export function FilterPanel({ columns, applied, onApply }: { columns: TableColumn[]; applied: TableFilters; onApply: (filters: TableFilters) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<TableFilters>(applied);
  const set = (field: string, operator: 'gte' | 'lte' | 'contains', value: string) => setDraft((current) => ({ ...current, [field]: { ...current[field], [operator]: value } }));
  const problems = columns.flatMap((column) =>
    (['gte', 'lte'] as const).flatMap((operator) => {
      const key = isRangeColumn(column) ? boundProblem(column, draft[column.field]?.[operator]) : null;
      return key ? [{ field: column.field, operator, key }] : [];
    }),
  );
  const problemOf = (field: string, operator: string) => problems.find((problem) => problem.field === field && problem.operator === operator);

  return (
    <Form
      layout="vertical"
      onFinish={() => {
        if (problems.length === 0) onApply(draft);
      }}
    >
      <Row gutter={[16, 0]}>
        {columns.map((column) => {
          const title = columnTitle(column, pageLanguage);
          const filter = draft[column.field] ?? {};
          if (!isRangeColumn(column)) {
            return (
              <Col key={column.field} xs={24} sm={12} lg={8}>
                <Form.Item label={title} htmlFor={`filter-${column.field}-contains`}>
                  <Input
                    id={`filter-${column.field}-contains`}
                    allowClear
                    value={filter.contains ?? ''}
                    placeholder={t('tablesUi.filters.contains')}
                    aria-label={t('tablesUi.filters.containsLabel', { column: title })}
                    onChange={(event) => set(column.field, 'contains', event.target.value)}
                  />
                </Form.Item>
              </Col>
            );
          }
          const input = INPUT_TYPES[column.type]!;
          const problem = problemOf(column.field, 'gte') ?? problemOf(column.field, 'lte');
          return (
            <Col key={column.field} xs={24} sm={12} lg={8}>
              <Form.Item label={title} htmlFor={`filter-${column.field}-gte`} validateStatus={problem ? 'error' : undefined} help={problem ? t(problem.key) : undefined}>
                <Space.Compact style={{ width: '100%' }}>
                  {(['gte', 'lte'] as const).map((operator) => (
                    <Input
                      key={operator}
                      id={`filter-${column.field}-${operator}`}
                      type={input.type}
                      inputMode={input.inputMode}
                      value={filter[operator] ?? ''}
                      placeholder={t(`tablesUi.filters.${operator}`)}
                      aria-label={t(`tablesUi.filters.${operator}Label`, { column: title })}
                      status={problemOf(column.field, operator) ? 'error' : undefined}
                      onChange={(event) => set(column.field, operator, event.target.value)}
                    />
                  ))}
                </Space.Compact>
              </Form.Item>
            </Col>
          );
        })}
      </Row>
      <Flex gap={8} wrap align="center">
        <Button type="primary" htmlType="submit" disabled={problems.length > 0}>
          {t('tablesUi.filters.apply')}
        </Button>
        <Button
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          {t('tablesUi.filters.clear')}
        </Button>
        <Typography.Text type="secondary">{t('tablesUi.filters.hint')}</Typography.Text>
      </Flex>
    </Form>
  );
}
