import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import SearchOutlined from '@ant-design/icons-svg/es/asn/SearchOutlined';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { personalPath } from '../../app/site';
import { formatBytes, formatCount, formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { hasSessionCookie, useCurrentUser } from '../account/api';
import { MOST_VIEWED_LENGTH, useCatalogueStats, useHotData } from './api';

/** A dataset's landing page (`/{lang}/data/{id}/`), under the router's language prefix. */
const landingPath = (id: string) => `/data/${id}/`;

/**
 * Home (issue "Find data"): what the portal is, a search box, the catalogue's counts, the hot data
 * list (top 10 by downloads, then views), the most viewed (top 5) and the newest publications.
 * Every number comes from the server's database; a list with nothing in it says so.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  // While the user is being asked for, the session cookie already tells which button to show.
  const signedIn = user === undefined ? hasSessionCookie() : user !== null;
  const stats = useCatalogueStats();
  return (
    <div className="stack">
      <section className="hero on-dark" aria-labelledby="home-title">
        <h1 id="home-title">{t('home.welcome')}</h1>
        <p>{t('home.intro')}</p>
        <SearchBox />
        <div className="hero-actions">
          <a className="button button-large" href={personalPath('/metadata/add')}>
            {t('home.getStarted')}
          </a>
          {/* Signed in, the way into the personal centre; otherwise its login screen. */}
          <a className="button button-large button-ghost" href={personalPath(signedIn ? '/' : '/login')}>
            {signedIn ? t('home.openPersonal') : t('home.signIn')}
          </a>
        </div>
      </section>

      <section aria-labelledby="home-stats">
        <h2 id="home-stats" className="visually-hidden">
          {t('home.statsTitle')}
        </h2>
        {stats.isError ? (
          <LoadFailed query={stats} />
        ) : (
          <dl className="stats" aria-busy={stats.isPending}>
            <Count label={t('home.stats.datasets')} value={stats.data && formatCount(stats.data.datasets)} />
            <Count label={t('home.stats.files')} value={stats.data && formatCount(stats.data.files)} />
            <Count label={t('home.stats.volume')} value={stats.data && formatBytes(stats.data.bytes)} />
          </dl>
        )}
      </section>

      <div className="home-lists">
        <section className="card" aria-labelledby="home-hot">
          <h2 id="home-hot">{t('home.hotData')}</h2>
          <HotData />
        </section>
        <div className="home-side">
          <section className="card" aria-labelledby="home-viewed">
            <h2 id="home-viewed">{t('home.viewedData')}</h2>
            <Listed query={stats} items={(data) => data.most_viewed.slice(0, MOST_VIEWED_LENGTH)} empty={(data) => (data.newest.length > 0 ? t('home.noViews') : t('home.noData'))}>
              {(item) => (
                <span className="meta">
                  <Icon icon={EyeOutlined} /> <span className="visually-hidden">{t('home.columns.views')}</span>
                  {formatCount(item.hit_count)}
                </span>
              )}
            </Listed>
          </section>
          <section className="card" aria-labelledby="home-newest">
            <h2 id="home-newest">{t('home.newest')}</h2>
            <Listed query={stats} items={(data) => data.newest}>
              {(item) =>
                item.published_at && (
                  <time className="meta" dateTime={item.published_at}>
                    <span className="visually-hidden">{t('home.columns.published')} </span>
                    {formatDate(item.published_at)}
                  </time>
                )
              }
            </Listed>
          </section>
        </div>
      </div>
    </div>
  );
}

/** Submitting opens the data page with the words typed (`/data/?q=`), in the page's language. */
function SearchBox() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  return (
    <form
      role="search"
      className="hero-search"
      onSubmit={(event) => {
        event.preventDefault();
        const words = query.trim();
        navigate(words ? `/data/?q=${encodeURIComponent(words)}` : '/data/');
      }}
    >
      <label htmlFor="home-search">{t('home.searchLabel')}</label>
      <input
        id="home-search"
        type="search"
        name="q"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={t('home.searchPlaceholder')}
        enterKeyHint="search"
      />
      <button type="submit" className="button button-large">
        <Icon icon={SearchOutlined} />
        {t('home.searchButton')}
      </button>
    </form>
  );
}

function Count({ label, value }: { label: string; value: string | undefined }) {
  return (
    <div>
      <dt>{label}</dt>
      {/* A dash while the count is on its way: the tile keeps its height. */}
      <dd>{value ?? '–'}</dd>
    </div>
  );
}

/** The top 10: title (to the dataset's landing page), downloads, views. The portal has no comments. */
function HotData() {
  const { t } = useTranslation();
  const hot = useHotData();
  if (hot.isPending) return <Loading />;
  if (hot.isError) return <LoadFailed query={hot} />;
  if (hot.data.length === 0) return <p className="empty-state">{t('home.noData')}</p>;
  return (
    <table className="data-table" aria-labelledby="home-hot">
      <thead>
        <tr>
          <th scope="col">{t('home.columns.title')}</th>
          <th scope="col" className="number">
            {t('home.columns.downloads')}
          </th>
          <th scope="col" className="number">
            {t('home.columns.views')}
          </th>
        </tr>
      </thead>
      <tbody>
        {hot.data.map((item) => (
          <tr key={item.id}>
            <td>
              <Link to={landingPath(item.id)}>{item.title}</Link>
            </td>
            <td className="number">{formatCount(item.lineitem_set)}</td>
            <td className="number">{formatCount(item.hit_count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A ranked list of records of the catalogue's counts, each linking to its landing page. */
function Listed<Data, Item extends { id: string; title: string }>({
  query,
  items,
  empty,
  children,
}: {
  query: UseQueryResult<Data>;
  items: (data: Data) => Item[];
  /** What an empty list says ('no dataset is published yet' unless given). */
  empty?: (data: Data) => string;
  children: (item: Item) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadFailed query={query} />;
  const shown = items(query.data);
  if (shown.length === 0) return <p className="empty-state">{empty ? empty(query.data) : t('home.noData')}</p>;
  return (
    <ol className="rank-list">
      {shown.map((item) => (
        <li key={item.id}>
          <Link to={landingPath(item.id)}>{item.title}</Link>
          {children(item)}
        </li>
      ))}
    </ol>
  );
}

function Loading() {
  const { t } = useTranslation();
  return (
    <div className="placeholder" role="status">
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}

function LoadFailed({ query }: { query: UseQueryResult<unknown> }) {
  const { t } = useTranslation();
  return (
    <p className="load-failed" role="alert">
      {t('home.loadFailed')}
      <button type="button" className="button" onClick={() => void query.refetch()}>
        {t('home.retry')}
      </button>
    </p>
  );
}
