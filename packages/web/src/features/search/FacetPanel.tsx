import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FacetValue } from '@portal/shared/contracts/search';
import { SEARCH_FACETS, type SearchFacet } from '@portal/shared/domain/search';
import { toggleFilter, type SearchState } from './searchUrl';

/** Values a facet shows before "show all". */
const FACET_VISIBLE = 5;
const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

type Facets = Partial<Record<SearchFacet, FacetValue[]>>;

/**
 * The values of one facet with their counts, as a group of checkboxes; values chosen but absent
 * from the reply (a search that found nothing) stay listed, so that they can be taken off.
 */
function FacetGroup({ facet, values, state, onChange }: { facet: SearchFacet; values: FacetValue[]; state: SearchState; onChange: (next: SearchState) => void }) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const chosen = state.filters[facet];
  const listed = [...values, ...chosen.filter((value) => !values.some((v) => v.value === value)).map((value) => ({ value, label: value, count: 0 }))];
  if (!listed.length) return null;
  // Chosen values are never hidden behind "show all".
  const visible = expanded ? listed : listed.filter((v, index) => index < FACET_VISIBLE || chosen.includes(v.value));
  return (
    <fieldset className="sp-facet">
      <legend>{t(`search.ui.facets.${facet}`)}</legend>
      <ul>
        {visible.map((v) => (
          <li key={v.value}>
            <label>
              <input
                type="checkbox"
                checked={chosen.includes(v.value)}
                onChange={() => onChange(toggleFilter(state, facet, v.value))}
                aria-label={t('search.ui.filters.option', { label: v.label, count: v.count })}
              />
              <span className="sp-facet-label">{v.label}</span>
              <span className="sp-facet-count" aria-hidden="true">
                {v.count}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {listed.length > FACET_VISIBLE && (
        <button type="button" className="sp-link-button" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? t('search.ui.filters.showLess') : t('search.ui.filters.showMore', { count: listed.length })}
        </button>
      )}
    </fieldset>
  );
}

/** The time covered, as two years (or dates) that records' time ranges must overlap. */
function TimeFilter({ state, onChange }: { state: SearchState; onChange: (next: SearchState) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [start, setStart] = useState(state.start);
  const [end, setEnd] = useState(state.end);
  const [error, setError] = useState('');
  // The search's range changed (the address, a reset): the fields show it, set while rendering (React's
  // way to follow a prop, without an effect's second render).
  const [followed, setFollowed] = useState({ start: state.start, end: state.end });
  if (followed.start !== state.start || followed.end !== state.end) {
    setFollowed({ start: state.start, end: state.end });
    setStart(state.start);
    setEnd(state.end);
    setError('');
  }
  return (
    <form
      className="sp-facet sp-time"
      aria-labelledby={`${id}-legend`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const [from, to] = [start.trim(), end.trim()];
        if ((from && !DATE.test(from)) || (to && !DATE.test(to))) return setError(t('search.validation.date'));
        if (from && to && from > to) return setError(t('search.validation.timeOrder'));
        setError('');
        onChange({ ...state, start: from, end: to, page: 1 });
      }}
    >
      <p className="sp-legend" id={`${id}-legend`}>
        {t('search.ui.time.legend')}
      </p>
      <div className="sp-fields">
        <label>
          <span>{t('search.ui.time.from')}</span>
          <input
            inputMode="numeric"
            maxLength={10}
            placeholder="YYYY"
            value={start}
            onChange={(e) => setStart(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </label>
        <label>
          <span>{t('search.ui.time.to')}</span>
          <input
            inputMode="numeric"
            maxLength={10}
            placeholder="YYYY"
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </label>
        <button type="submit" className="sp-button">
          {t('search.ui.time.apply')}
        </button>
      </div>
      {error && (
        <p className="sp-field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * The filters beside the results (above them on a phone, folded behind a button): every facet
 * with its counts over the whole result, then the time range.
 */
export function FacetPanel({ state, facets, onChange }: { state: SearchState; facets: Facets | undefined; onChange: (next: SearchState) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const chosen = SEARCH_FACETS.reduce((n, facet) => n + state.filters[facet].length, 0) + (state.start || state.end ? 1 : 0);
  const panelId = useId();
  return (
    <aside className="sp-filters" aria-labelledby={`${panelId}-title`}>
      <h2 className="sp-filters-title" id={`${panelId}-title`}>
        {t('search.ui.filters.title')}
      </h2>
      <button type="button" className="sp-button sp-filters-toggle" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        {t('search.ui.filters.toggle', { count: chosen })}
      </button>
      <div id={panelId} className={`sp-filters-panel${open ? ' is-open' : ''}`}>
        {SEARCH_FACETS.map((facet) => (
          <FacetGroup key={facet} facet={facet} values={facets?.[facet] ?? []} state={state} onChange={onChange} />
        ))}
        <TimeFilter state={state} onChange={onChange} />
      </div>
    </aside>
  );
}
