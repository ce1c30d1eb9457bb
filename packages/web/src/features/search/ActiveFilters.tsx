import { useTranslation } from 'react-i18next';
import type { FacetValue } from '@portal/shared/contracts/search';
import { SEARCH_FACETS, type SearchFacet } from '@portal/shared/domain/search';
import { describeBox } from './boxText';
import { countFilters, toggleFilter, withoutFilters, type SearchState } from './searchUrl';

/** The filters in force, each with a button that takes it off, and one that takes them all off. */
export function ActiveFilters({
  state,
  facets,
  onChange,
}: {
  state: SearchState;
  facets: Partial<Record<SearchFacet, FacetValue[]>> | undefined;
  onChange: (next: SearchState) => void;
}) {
  const { t } = useTranslation();
  if (!countFilters(state)) return null;
  const chips: { key: string; label: string; next: SearchState }[] = [];
  for (const facet of SEARCH_FACETS) {
    for (const value of state.filters[facet]) {
      const label = facets?.[facet]?.find((v) => v.value === value)?.label ?? value;
      chips.push({ key: `${facet}:${value}`, label: `${t(`search.ui.facets.${facet}`)}: ${label}`, next: toggleFilter(state, facet, value) });
    }
  }
  if (state.start || state.end) {
    chips.push({ key: 'time', label: t('search.ui.time.range', { range: `${state.start || '…'}–${state.end || '…'}` }), next: { ...state, start: '', end: '', page: 1 } });
  }
  if (state.bbox) chips.push({ key: 'bbox', label: t('search.ui.map.box', { box: describeBox(t, state.bbox) }), next: { ...state, bbox: null, page: 1 } });
  return (
    <div className="sp-active" role="group" aria-label={t('search.ui.filters.active')}>
      <ul>
        {chips.map((chip) => (
          <li key={chip.key}>
            <span className="sp-chip">
              <span>{chip.label}</span>
              <button type="button" aria-label={t('search.ui.filters.remove', { label: chip.label })} onClick={() => onChange(chip.next)}>
                <span aria-hidden="true">×</span>
              </button>
            </span>
          </li>
        ))}
      </ul>
      <button type="button" className="sp-link-button" onClick={() => onChange(withoutFilters(state))}>
        {t('search.ui.filters.clearAll')}
      </button>
    </div>
  );
}
