import { Descriptions, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { licenseLabelKey } from '@portal/shared';
import { pageLanguage } from '../../../app/i18n';
import { resource, type Fund, type MetadataRecord, type Translation } from '../api';
import { FIELD_LABELS, fieldsOf, type RecordField } from './overviewFields';
import { useFeedback } from './useFeedback';

/** Option fields and the catalogue prefix of their labels. */
const OPTION_LABELS: Partial<Record<RecordField, string>> = {
  doi_category: 'metadata.options.doiCategory.',
  protection_period: 'metadata.options.protectionPeriod.',
  temporal_resolution: 'metadata.options.temporalResolution.',
  sharing_policy: 'metadata.options.sharingPolicy.',
  submitting_type: 'metadata.options.submittingType.',
  platform: 'metadata.options.platform.',
};

/** Fields shown across the whole width of the document view. */
const LONG_FIELDS = new Set<string>([
  'title',
  'en_title',
  'description',
  'en_description',
  'data_source',
  'use_term',
  'usage_method',
  'citation',
  'time_description',
  'protection_description',
  'dist_address',
]);

/** A record that cannot be changed (in review, published), read as a document: labels and values. */
export function RecordDocument({ record, english }: { record: MetadataRecord; english: Translation | undefined }) {
  const { t } = useFeedback();
  const { data: funds } = useQuery({ queryKey: ['metadata', 'funds'], queryFn: () => resource.list<Fund>('fund', { pageSize: 1000 }) });
  const valueOf = (key: RecordField): string => {
    const value = record[key];
    if (value === null || value === undefined || value === '') return '';
    if (key === 'license') return t(licenseLabelKey(String(value)));
    const prefix = OPTION_LABELS[key];
    return prefix ? t(`${prefix}${String(value)}`) : String(value);
  };
  const keys: (RecordField | 'en_title' | 'en_description')[] = fieldsOf(record).flatMap((key) =>
    key === 'title' && english ? [key, 'en_title' as const] : key === 'description' && english ? [key, 'en_description' as const] : [key],
  );
  const fundNames = record.fund.map((id) => {
    const fund = funds?.results.find((row) => row.id === id);
    return fund ? (pageLanguage === 'en' ? fund.name_en || fund.name : fund.name) : id;
  });
  const items = [
    ...keys.map((key) => {
      const value = key === 'en_title' ? (english?.title ?? '') : key === 'en_description' ? (english?.description ?? '') : valueOf(key);
      return {
        key,
        label: t(`editor.fields.${FIELD_LABELS[key]}`),
        children: value ? <span style={{ whiteSpace: 'pre-wrap' }}>{value}</span> : <Typography.Text type="secondary">—</Typography.Text>,
        span: LONG_FIELDS.has(key) ? ('filled' as const) : undefined,
      };
    }),
    { key: 'funds', label: t('editor.fields.funds'), children: fundNames.length ? fundNames.join(t('editor.listSeparator')) : '—', span: 'filled' as const },
  ];
  return <Descriptions data-testid="record-document" bordered size="small" column={{ xs: 1, md: 2 }} items={items} />;
}
