import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { METHOD_LIMITS, ORDER_LIMITS } from '@portal/shared';
import { ordersApi, ordersKeys } from '../../orders/api';
import { datasetTitle } from '../../orders/components/common';
import { isEmbargoed } from '../../orders/selection';
import { analysisApi, analysisKeys, type RunDataset } from '../api';

/** The whole basket in one read, as the basket page reads it (the same cached query). */
const BASKET_QUERY = { page: 1, pageSize: ORDER_LIMITS.basketMax };
const DOWNLOADABLE_QUERY = { page: 1, pageSize: 100 };

interface Option {
  value: string;
  label: string;
  /** Found by the catalogue's search for what was typed (not filtered again here). */
  isFound?: boolean;
}

/**
 * The datasets of a run, chosen among records the caller may download: the data cart's first (its
 * datasets out of their protection period), then those an approved order gives, then open data found
 * by typing (the catalogue's search). The server checks each again when the run starts. `known`
 * names datasets chosen before (a reopened run's) that no list holds.
 */
export function DatasetPicker({ value = [], onChange, known = [], id }: { value?: string[]; onChange?: (value: string[]) => void; known?: RunDataset[]; id?: string }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const search = typed.trim();
  const basket = useQuery({ queryKey: ordersKeys.basket(BASKET_QUERY), queryFn: () => ordersApi.basket(BASKET_QUERY) });
  const downloadable = useQuery({ queryKey: ordersKeys.downloadable(DOWNLOADABLE_QUERY), queryFn: () => ordersApi.downloadable(DOWNLOADABLE_QUERY) });
  const found = useQuery({ queryKey: analysisKeys.openRecords(search), queryFn: () => analysisApi.openRecords(search), enabled: search.length >= 2 });

  const groups = useMemo(() => {
    const seen = new Set<string>();
    const take = (options: Option[]) => options.filter((option) => !seen.has(option.value) && seen.add(option.value));
    const cart = take((basket.data?.results ?? []).filter((line) => !isEmbargoed(line)).map((line) => ({ value: line.metadata_id, label: datasetTitle(line) })));
    const ordered = take((downloadable.data?.results ?? []).map((dataset) => ({ value: dataset.metadata_id, label: datasetTitle(dataset) })));
    const open = take((found.data?.results ?? []).map((hit) => ({ value: hit.id, label: hit.title, isFound: true })));
    const earlier = take(known.map((dataset) => ({ value: dataset.id, label: datasetTitle(dataset) || dataset.id })));
    return [
      { label: t('analysisUi.run.groupCart'), title: 'cart', options: cart },
      { label: t('analysisUi.run.groupOrdered'), title: 'ordered', options: ordered },
      { label: t('analysisUi.run.groupOpen'), title: 'open', options: open },
      { label: t('analysisUi.run.groupEarlier'), title: 'earlier', options: earlier },
    ].filter((group) => group.options.length);
  }, [basket.data, downloadable.data, found.data, known, t]);

  return (
    <Select<string[]>
      id={id}
      mode="multiple"
      value={value}
      onChange={(next) => onChange?.(next)}
      options={groups}
      showSearch={{
        searchValue: typed,
        onSearch: setTyped,
        filterOption: (input, option) =>
          !!option && (!('value' in option) || !!(option as Option).isFound || String(option.label).toLowerCase().includes(input.trim().toLowerCase())),
      }}
      onBlur={() => setTyped('')}
      maxCount={METHOD_LIMITS.datasets}
      loading={basket.isLoading || found.isFetching}
      placeholder={t('analysisUi.run.datasetsPlaceholder')}
      notFoundContent={search.length >= 2 ? t('analysisUi.run.noDatasetFound') : t('analysisUi.run.typeToSearch')}
      style={{ width: '100%' }}
    />
  );
}
