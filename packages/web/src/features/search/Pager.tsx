import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pageWindow, serializeSearch, type SearchState } from './searchUrl';

/** Links to the pages of the result: real addresses, so that each page is a link and Back returns. */
export function Pager({ state, last }: { state: SearchState; last: number }) {
  const { t } = useTranslation();
  if (last <= 1) return null;
  const to = (page: number) => ({ search: `?${serializeSearch({ ...state, page })}` });
  return (
    <nav className="sp-pager" aria-label={t('search.ui.paging.label')}>
      <ul>
        <li>
          {state.page > 1 ? (
            <Link to={to(state.page - 1)} rel="prev" className="sp-page-step">
              {t('search.ui.paging.previous')}
            </Link>
          ) : (
            <span className="sp-page-step is-disabled" aria-disabled="true">
              {t('search.ui.paging.previous')}
            </span>
          )}
        </li>
        {pageWindow(state.page, last).map((page, index) =>
          page === null ? (
            <li key={`gap-${index}`} className="sp-page-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={page}>
              <Link to={to(page)} aria-current={page === state.page ? 'page' : undefined} aria-label={t('search.ui.paging.page', { page })} className="sp-page">
                {page}
              </Link>
            </li>
          ),
        )}
        <li>
          {state.page < last ? (
            <Link to={to(state.page + 1)} rel="next" className="sp-page-step">
              {t('search.ui.paging.next')}
            </Link>
          ) : (
            <span className="sp-page-step is-disabled" aria-disabled="true">
              {t('search.ui.paging.next')}
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
