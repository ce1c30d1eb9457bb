import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SearchHit } from '@portal/shared/contracts/search';
import { pageLanguage } from '../../app/i18n';
import { formatCount } from '../../components/format';
import { AddToCartButton } from '../orders/public/AddToCartButton';
import { highlightParts } from './highlight';

/** Matched words marked with <mark>, from the reply's character ranges (never as HTML). */
export function Highlighted({ text, ranges }: { text: string; ranges: [number, number][] }) {
  return <>{highlightParts(text, ranges).map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}</>;
}

/** "1990–2020" from the record's time range (either end may be missing). */
function period(hit: SearchHit): string {
  const [start, end] = [hit.time_start.slice(0, 4), hit.time_end.slice(0, 4)];
  if (start && end) return start === end ? start : `${start}–${end}`;
  return start || end;
}

function Hit({ hit }: { hit: SearchHit }) {
  const { t } = useTranslation();
  const years = period(hit);
  return (
    <li className="sp-hit">
      <article>
        <div className="sp-hit-body">
          <h2 className="sp-hit-title">
            {/* The dataset's landing page (issue "Landing pages"). */}
            <Link to={`/data/${hit.id}/`}>
              <Highlighted text={hit.title} ranges={hit.highlights.title} />
            </Link>
          </h2>
          {hit.authors.length > 0 && (
            <p className="sp-hit-authors">
              <span className="sp-visually-hidden">{t('search.ui.hit.authors')}: </span>
              {hit.authors.join(pageLanguage === 'en' ? ', ' : '、')}
            </p>
          )}
          <p className="sp-hit-snippet">{hit.snippet ? <Highlighted text={hit.snippet} ranges={hit.highlights.snippet} /> : t('search.ui.hit.noAbstract')}</p>
          <p className="sp-hit-facts">
            {years && (
              <span>
                <span className="sp-visually-hidden">{t('search.ui.hit.period')}: </span>
                {years}
              </span>
            )}
            <span>{t('search.ui.hit.views', { number: formatCount(hit.hit_count) })}</span>
            <span>{t('search.ui.hit.downloads', { number: formatCount(hit.download_count) })}</span>
          </p>
          <AddToCartButton metadataId={hit.id} title={hit.title} compact />
        </div>
        {hit.thumbnail ? (
          <img className="sp-hit-thumb" src={hit.thumbnail} alt="" width={96} height={72} loading="lazy" decoding="async" />
        ) : (
          <div className="sp-hit-thumb sp-hit-thumb-none" aria-hidden="true" />
        )}
      </article>
    </li>
  );
}

export function HitList({ hits, start }: { hits: SearchHit[]; start: number }) {
  return (
    <ol className="sp-hits" start={start}>
      {hits.map((hit) => (
        <Hit key={hit.id} hit={hit} />
      ))}
    </ol>
  );
}
