import { lazy, Suspense, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { creditsOf, KEYWORD_TYPES, licenseUrl, type Credit, type Language, type MetadataRecord, type MetaAuthor } from '@portal/shared';
import { path } from '../../api/routes';
import { pageLanguage } from '../../app/i18n';
import { loadChunk } from '../../app/lazy';
import { siteVariant } from '../../app/site';
import { formatBytes, formatCount, formatDate } from '../../components/format';
import { describeBox } from '../search/boxText';
import type { MetaKeyword } from './api';
import { DownloadAccess } from '../orders/public/DownloadAccess';
import { doiUrl, hasBox, useNearViewport } from './landingData';
import './landing.css';

/**
 * The parts of a published record's landing page, one component each: the page (LandingPage.tsx)
 * draws them, and so does the expert's review page (features/review), which shows the record as
 * submitted as the page would. A module of their own, so that the landing page itself stays a chunk
 * of its own that the server names in the page's head (plugins/route-chunks.ts), and the review page
 * does not load the page.
 */

// OpenLayers and proj4 come only when the page has an area and its map nears the screen.
const ExtentMap = lazy(() => loadChunk(() => import('./ExtentMap')));

type TranslatedField =
  'data_source' | 'use_term' | 'usage_method' | 'citation' | 'time_description' | 'dist_unit' | 'dist_address' | 'dist_city' | 'dist_province' | 'dist_country';

/**
 * A text of the record in the page's language: the record's own in its language, the translation
 * the provider saved in the other (Translations tab), the record's own when there is none.
 */
export function inLanguage(record: MetadataRecord, field: TranslatedField, language: Language = pageLanguage): string {
  if (language === record.language) return record[field].trim();
  const translated = record.translations?.find((version) => version.language === language)?.[field] ?? '';
  return (translated || record[field]).trim();
}

/** The citation the authors ask for, in the page's language when they wrote one in it. */
export function requiredCitation(record: MetadataRecord, language: Language): string {
  return inLanguage(record, 'citation', language);
}

export function Section({ id, title, className, children }: { id: string; title: string; className?: string; children: ReactNode }) {
  return (
    <section className={className ? `lp-section ${className}` : 'lp-section'} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** Terms and values; a term without a value is left out. */
export function Terms({ items }: { items: [string, ReactNode][] }) {
  const shown = items.filter(([, value]) => value !== '' && value !== null && value !== undefined && value !== false);
  if (!shown.length) return null;
  return (
    <dl className="lp-terms">
      {shown.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Something still loading shows nothing yet (the section's title is there); an empty list says so. */
function Listed<T>({ items, empty, children }: { items: T[] | undefined; empty: string; children: (items: T[]) => ReactNode }) {
  if (items === undefined) return <p className="lp-muted" aria-busy="true" />;
  if (!items.length) return <p className="lp-muted">{empty}</p>;
  return <>{children(items)}</>;
}

function DoiLink({ doi }: { doi: string }) {
  return (
    <a href={doiUrl(doi)} className="lp-doi">
      {doiUrl(doi)}
    </a>
  );
}

export function Facts({ record }: { record: MetadataRecord }) {
  const { t } = useTranslation();
  const programme = [
    record.subtopic_three_pole && t('landing.facts.threePole', { number: record.subtopic_three_pole }),
    record.subtopic_third_pole && t('landing.facts.thirdPole', { number: record.subtopic_third_pole }),
  ].filter(Boolean);
  return (
    <section className="lp-card" aria-labelledby="lp-facts">
      <h2 id="lp-facts">{t('landing.sections.facts')}</h2>
      <Terms
        items={[
          [t('landing.facts.doi'), record.doi && <DoiLink doi={record.doi} />],
          [t('landing.facts.published'), formatDate(record.published_at)],
          [t('landing.facts.updated'), formatDate(record.updated_at)],
          [t('landing.facts.views'), formatCount(record.hit_count)],
          [t('landing.facts.downloads'), formatCount(record.download_count ?? 0)],
          [t('landing.facts.language'), t(`landing.options.language.${record.language}`)],
          [t('landing.facts.programme'), programme.join('; ')],
        ]}
      />
    </section>
  );
}

export function Access({ record }: { record: MetadataRecord }) {
  const { t } = useTranslation();
  const deed = licenseUrl(record.license);
  const license =
    record.license &&
    (deed ? (
      <a href={deed} rel="license">
        {t(`landing.options.license.${record.license.replace(/^CC /, '').replace(/ 4\.0$/, '')}`)}
      </a>
    ) : (
      record.license
    ));
  const protection = record.protection_period ? t(`landing.options.protectionPeriod.${record.protection_period}`) : t('landing.facts.noProtection');
  const available =
    record.embargo_until && record.embargo_until > (record.published_at ?? '')
      ? formatDate(record.embargo_until)
      : t('landing.facts.availableAtPublication', { date: formatDate(record.published_at) });
  return (
    <section className="lp-card" aria-labelledby="lp-access">
      <h2 id="lp-access">{t('landing.sections.access')}</h2>
      <Terms
        items={[
          [t('landing.facts.license'), license],
          [t('landing.facts.sharing'), record.sharing_policy && t(`landing.options.sharingPolicy.${record.sharing_policy}`)],
          [t('landing.facts.protection'), record.protection_description ? `${protection} (${record.protection_description})` : protection],
          [t('landing.facts.available'), available],
          [t('landing.facts.useTerm'), inLanguage(record, 'use_term')],
        ]}
      />
      <DownloadAccess metadataId={record.id} />
    </section>
  );
}

/** The distributor as the record's distribution fields publish it (never an author's own e-mail or phone). */
export function Contact({ record }: { record: MetadataRecord }) {
  const { t } = useTranslation();
  // The organisation and each part of the address in the page's language when the provider translated it.
  const place = (['dist_address', 'dist_city', 'dist_province', 'dist_country'] as const).map((field) => inLanguage(record, field)).filter(Boolean);
  // Chinese addresses run from the country down, English ones from the street up.
  const address = pageLanguage === 'en' ? place.join(', ') : [...place].reverse().join(' ');
  const items: [string, ReactNode][] = [
    [t('landing.contact.organisation'), inLanguage(record, 'dist_unit')],
    [t('landing.contact.address'), address],
    [t('landing.contact.email'), record.dist_email && <a href={`mailto:${record.dist_email}`}>{record.dist_email}</a>],
  ];
  return (
    <section className="lp-card" aria-labelledby="lp-contact">
      <h2 id="lp-contact">{t('landing.sections.contact')}</h2>
      {items.some(([, value]) => value) ? <Terms items={items} /> : <p className="lp-muted">{t('landing.contact.none')}</p>}
    </section>
  );
}

/**
 * The record's people, each once in the record's order with every role they have on it: under
 * "Authors" the creators every citation names (shared rules/creators.ts), the data centre when no
 * one has a creator role; under "Contributors" everyone else.
 */
export function People({ links }: { links: MetaAuthor[] | undefined }) {
  const { t } = useTranslation();
  const credits =
    links &&
    creditsOf(
      links.filter((link) => link.author_detail),
      (link) => link.author_id,
      (link) => link.role,
    );
  return (
    <>
      <Section id="lp-authors" title={t('landing.sections.authors')}>
        {!credits ? (
          <p className="lp-muted" aria-busy="true" />
        ) : credits.creators.length ? (
          <PersonList credits={credits.creators} ordered />
        ) : (
          <ol className="lp-authors">
            <li>
              <span className="lp-author-name">{t(`site.${siteVariant()}.title`)}</span>
              <span className="lp-author-roles">{t('landing.people.centreAsAuthor')}</span>
            </li>
          </ol>
        )}
      </Section>
      {credits && credits.contributors.length > 0 && (
        <Section id="lp-contributors" title={t('landing.sections.contributors')}>
          <PersonList credits={credits.contributors} />
        </Section>
      )}
    </>
  );
}

function PersonList({ credits, ordered = false }: { credits: Credit<MetaAuthor>[]; ordered?: boolean }) {
  const { t } = useTranslation();
  const List = ordered ? 'ol' : 'ul';
  return (
    <List className={ordered ? 'lp-authors' : 'lp-authors lp-contributors'}>
      {credits.map(({ link, roles }) => {
        const author = link.author_detail!;
        const own = author.translations.find((translation) => translation.language === pageLanguage);
        return (
          <li key={link.author_id}>
            <span className="lp-author-name">{own?.name || author.name}</span>
            <span className="lp-author-roles">{roles.map((role) => t(`landing.options.authorRole.${role}`)).join(pageLanguage === 'en' ? ', ' : '、')}</span>
            {(own?.affiliation || author.affiliation) && <span className="lp-author-affiliation">{own?.affiliation || author.affiliation}</span>}
          </li>
        );
      })}
    </List>
  );
}

export function Keywords({ links }: { links: MetaKeyword[] | undefined }) {
  const { t } = useTranslation();
  const nameOf = (link: MetaKeyword) => {
    const keyword = link.keyword_detail!;
    if (keyword.language === pageLanguage) return keyword.name;
    return keyword.translations.find((translation) => translation.language === pageLanguage)?.name || keyword.name;
  };
  return (
    <Listed items={links?.filter((link) => link.keyword_detail)} empty="—">
      {(rows) => (
        <dl className="lp-keywords">
          {KEYWORD_TYPES.map((type) => {
            const names = [...new Set(rows.filter((link) => link.keyword_detail!.type === type).map(nameOf))];
            return (
              names.length > 0 && (
                <div key={type}>
                  <dt>{t(`landing.options.keywordType.${type}`)}</dt>
                  <dd>
                    <ul>
                      {names.map((name) => (
                        <li key={name}>{name}</li>
                      ))}
                    </ul>
                  </dd>
                </div>
              )
            );
          })}
        </dl>
      )}
    </Listed>
  );
}

function timeCoverage(t: (key: string, options?: Record<string, string>) => string, start: string, end: string): string {
  if (start && end) return t('landing.coverage.timeRange', { start, end });
  if (start) return t('landing.coverage.timeFrom', { start });
  return end ? t('landing.coverage.timeUntil', { end }) : '';
}

export function Coverage({ record }: { record: MetadataRecord }) {
  const { t } = useTranslation();
  const mapId = useId();
  const box = hasBox(record) ? { west: record.west!, south: record.south!, east: record.east!, north: record.north! } : null;
  const [mapSlot, near] = useNearViewport<HTMLDivElement>();
  const timeDescription = inLanguage(record, 'time_description');
  return (
    <Section id="lp-coverage" title={t('landing.sections.coverage')}>
      <Terms
        items={[
          [t('landing.coverage.time'), [timeCoverage(t, record.time_start, record.time_end), timeDescription].filter(Boolean).join(pageLanguage === 'en' ? '. ' : '；')],
          [t('landing.coverage.area'), box && describeBox(t, box)],
        ]}
      />
      {box && (
        <div ref={mapSlot} className="lp-map-slot" role="region" aria-labelledby={mapId}>
          <h3 id={mapId} className="visually-hidden">
            {t('landing.coverage.mapRegion')}
          </h3>
          {near && (
            <Suspense fallback={<p className="lp-muted">{t('landing.coverage.mapLoading')}</p>}>
              <ExtentMap box={box} />
            </Suspense>
          )}
        </div>
      )}
    </Section>
  );
}

export function Details({ record }: { record: MetadataRecord }) {
  const { t } = useTranslation();
  const items: [string, ReactNode][] = [
    [t('landing.details.temporalResolution'), record.temporal_resolution && t(`landing.options.temporalResolution.${record.temporal_resolution}`)],
    [t('landing.details.spatialResolution'), record.spatial_resolution],
    [t('landing.details.projection'), record.projection],
    [t('landing.details.coordinateSystem'), record.coordinate_system],
    [t('landing.details.scale'), record.scale !== null && t('landing.details.scaleValue', { denominator: formatCount(record.scale) })],
    [t('landing.facts.dataSource'), inLanguage(record, 'data_source')],
    [t('landing.facts.usageMethod'), inLanguage(record, 'usage_method')],
  ];
  if (!items.some(([, value]) => value)) return null;
  return (
    <Section id="lp-details" title={t('landing.sections.details')}>
      <Terms items={items} />
    </Section>
  );
}

export function Documents({ files }: { files: { id: string; name: string; size: number }[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Listed items={files} empty={t('landing.documents.none')}>
      {(rows) => (
        <ul className="lp-list">
          {rows.map((file) => (
            <li key={file.id}>
              {/* Specification documents of a published record are public (plugins: files). */}
              <a href={path('attachmentDownload', { id: file.id })} download aria-label={t('landing.documents.download', { name: file.name })}>
                {file.name}
              </a>{' '}
              <span className="lp-muted">{formatBytes(file.size)}</span>
            </li>
          ))}
        </ul>
      )}
    </Listed>
  );
}

export function Literature({ citations }: { citations: import('@portal/shared').Citation[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Listed items={citations?.filter((citation) => citation.literature_detail)} empty={t('landing.literature.none')}>
      {(rows) => (
        <ol className="lp-list">
          {rows.map(({ id, literature_detail: literature }) => {
            const own = literature!.translations.find((translation) => translation.language === pageLanguage)?.title;
            const title = own || (pageLanguage === 'en' && literature!.title_en) || literature!.title;
            const href = literature!.link || (literature!.doi && doiUrl(literature!.doi));
            return (
              <li key={id}>
                {href ? <a href={href}>{title}</a> : title}
                {[literature!.publisher, literature!.year].filter(Boolean).length > 0 && (
                  <span className="lp-muted"> — {[literature!.publisher, literature!.year].filter(Boolean).join(', ')}</span>
                )}
                {literature!.doi && (
                  <>
                    {' '}
                    <DoiLink doi={literature!.doi} />
                  </>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Listed>
  );
}

export function Funding({ funds }: { funds: import('@portal/shared').MetaFund[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Listed items={funds?.filter((fund) => fund.fund_detail)} empty={t('landing.funding.none')}>
      {(rows) => (
        <ul className="lp-list">
          {rows.map(({ id, fund_detail: fund }) => (
            <li key={id}>
              {(pageLanguage === 'en' && fund!.name_en) || fund!.name}
              {fund!.serial_number && <span className="lp-muted"> ({t('landing.funding.serial', { number: fund!.serial_number })})</span>}
            </li>
          ))}
        </ul>
      )}
    </Listed>
  );
}
