import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Component, lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SEARCH_SORTS, type SearchSort } from '@portal/shared/domain/search';
import { pageLanguage } from '../../app/i18n';
import { loadChunk } from '../../app/lazy';
import { siteVariant } from '../../app/site';
import { ActiveFilters } from './ActiveFilters';
import { embeddedSearch, fetchSearch, SearchError } from './api';
import { FacetPanel } from './FacetPanel';
import { HitList } from './HitList';
import { Pager } from './Pager';
import { SearchBox } from './SearchBox';
import { apiParams, countFilters, PAGE_SIZE, parseSearch, serializeSearch, withoutFilters, type MapView, type SearchState } from './searchUrl';
import './search.css';
import './search-results.css';

/** OpenLayers and proj4 are a chunk of their own, loaded when a map is shown. */
const MapPanel = lazy(() => loadChunk(() => import('./map/MapPanel')));

/** A map that could not be loaded says so; the search goes on without it. */
class MapBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * `/{lang}/data/`: the public catalogue. The address holds the whole search (see searchUrl.ts), so
 * that a search is a link and the back button returns to the one before; the page reads it, asks
 * the API, and writes every change back into it.
 */
export default function SearchPage() {
  const { t } = useTranslation();
  const countId = useId();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseSearch(params), [params]);
  const go = useCallback((next: SearchState, replace = false) => setParams(serializeSearch(next), { replace }), [setParams]);
  const pairs = useMemo(() => apiParams(state), [state]);
  const search = useQuery({
    queryKey: ['search', 'results', pageLanguage, pairs],
    queryFn: () => fetchSearch(pairs),
    // The first results may come with the page; they are as fresh as a reply the API would keep.
    initialData: embeddedSearch,
    initialDataUpdatedAt: () => Date.now(),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
  const reply = search.data;

  useEffect(() => {
    const before = document.title;
    document.title = [state.q, t('data.title'), t(`site.${siteVariant()}.title`)].filter(Boolean).join(' · ');
    return () => {
      document.title = before;
    };
  }, [state.q, t]);

  // Another page of the result: back to the top of the list.
  const resultsRef = useRef<HTMLElement>(null);
  const shownPage = useRef(state.page);
  useEffect(() => {
    if (shownPage.current !== state.page) resultsRef.current?.scrollIntoView({ block: 'start' });
    shownPage.current = state.page;
  }, [state.page]);

  const sort: SearchSort = state.sort ?? (state.q ? 'relevance' : 'newest');
  const last = reply ? Math.min(10_000, Math.ceil(reply.count / PAGE_SIZE)) : 0;
  const filtered = countFilters(state) > 0;
  const setMap = (map: MapView | null) => go({ ...state, map }, true);

  let status: ReactNode;
  if (!reply && search.isPending) status = t('search.ui.states.loading');
  else if (reply) status = t('search.ui.resultCount', { count: reply.count });

  return (
    <div className="sp">
      <h1 className="sp-title">{t('data.title')}</h1>
      <SearchBox value={state.q} onSearch={(q) => go({ ...state, q, page: 1 })} />
      <div className="sp-body">
        <FacetPanel state={state} facets={reply?.facets} onChange={(next) => go(next)} />
        <section className="sp-results" ref={resultsRef} aria-labelledby={countId} aria-busy={search.isFetching}>
          <div className="sp-toolbar">
            <p className="sp-count" id={countId} role="status">
              {status}
              {reply && search.isFetching && <span className="sp-spinner" aria-hidden="true" />}
            </p>
            <div className="sp-tools">
              <label className="sp-sort">
                <span>{t('search.ui.sort.label')}</span>
                <select value={sort} onChange={(event) => go({ ...state, sort: event.target.value as SearchSort, page: 1 })}>
                  {SEARCH_SORTS.map((value) => (
                    <option key={value} value={value}>
                      {t(`search.ui.sort.${value}`)}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" className="sp-button" aria-expanded={state.map !== null} aria-controls="sp-map" onClick={() => setMap(state.map ? null : 'global')}>
                {state.map ? t('search.ui.map.hide') : t('search.ui.map.show')}
              </button>
            </div>
          </div>
          <ActiveFilters state={state} facets={reply?.facets} onChange={(next) => go(next)} />
          {search.isError && (
            <div className="sp-message sp-message-error" role="alert">
              <p>{t('search.ui.states.error')}</p>
              {search.error instanceof SearchError && search.error.detail && <p>{search.error.detail}</p>}
              <button type="button" className="sp-button" onClick={() => void search.refetch()}>
                {t('search.ui.states.retry')}
              </button>
            </div>
          )}
          {state.map && (
            <div id="sp-map">
              <MapBoundary
                fallback={
                  <p className="sp-message sp-message-error" role="alert">
                    {t('search.ui.map.failed')}
                  </p>
                }
              >
                <Suspense fallback={<p className="sp-message sp-map-loading">{t('search.ui.map.loading')}</p>}>
                  <MapPanel view={state.map} onView={setMap} bbox={state.bbox} onBox={(bbox) => go({ ...state, bbox, page: 1 })} hits={reply?.results ?? []} />
                </Suspense>
              </MapBoundary>
            </div>
          )}
          {reply && reply.results.length > 0 && <HitList hits={reply.results} start={(state.page - 1) * PAGE_SIZE + 1} />}
          {reply && reply.results.length === 0 && !search.isError && (
            <div className="sp-message">
              {reply.count > 0 ? (
                <>
                  <p>{t('search.ui.states.pastEnd')}</p>
                  <Link to={{ search: `?${serializeSearch({ ...state, page: 1 })}` }}>{t('search.ui.states.firstPage')}</Link>
                </>
              ) : !state.q && !filtered ? (
                <p>{t('data.empty')}</p>
              ) : (
                <>
                  <p className="sp-message-title">{t('search.ui.states.noMatch')}</p>
                  <p>{t('search.ui.states.noMatchHint')}</p>
                  {filtered && (
                    <button type="button" className="sp-button" onClick={() => go(withoutFilters(state))}>
                      {t('search.ui.filters.clearAll')}
                    </button>
                  )}
                </>
              )}
            </div>
          )}
          {reply && <Pager state={state} last={last} />}
        </section>
      </div>
    </div>
  );
}
