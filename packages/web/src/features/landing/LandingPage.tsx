import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { languageTag, type Language, type MetadataRecord } from '@portal/shared';
import { pageLanguage } from '../../app/i18n';
import { siteVariant } from '../../app/site';
import { PageSpinner } from '../../components/PageSpinner';
import NotFoundPage from '../home/NotFoundPage';
import { useAttached, useRecord, useTombstone } from './api';
import { CitePanel } from './CitePanel';
import { FileList } from './FileList';
import { textVersions } from './landingData';
import { TableList } from './TableList';
import { TombstonePage } from './TombstonePage';
import { Access, Contact, Coverage, Details, Documents, Facts, Funding, Keywords, Literature, People, requiredCitation, Section } from './sections';
import './landing.css';

/**
 * A dataset's landing page `/{lang}/data/{id}/` (issue 9): what a scientist needs to judge the data,
 * from the public calls of a published record. A record never published is not found; an
 * unpublished one (NotPublished) shows its tombstone. The server has already answered the address
 * with 200, 404 or 410 and written the head (plugins/web.ts).
 */
export default function LandingPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const record = useRecord(id);
  const published = record.data?.status === 'published';
  const tombstone = useTombstone(id, record.isSuccess && !published);
  // Asked beside the record, not after it (one round trip less); a record that is not published
  // answers them with nothing, and they are not shown.
  const attached = useAttached(id, true);
  // The page is drawn whole once the record and what sits above and beside its abstract (the
  // thumbnail, the people) are known: drawn earlier, the thumbnail's arrival pushed the cards
  // beside it down (Lighthouse's layout shift 0.15 on a phone).
  const settling = (query: { isPending: boolean; isError: boolean }) => query.isPending && !query.isError;

  if (record.isPending || (tombstone.isLoading && !published) || (published && (settling(attached.thumbnail) || settling(attached.authors)))) return <PageSpinner />;
  if (record.isError || tombstone.isError) {
    return (
      <div className="result" role="alert">
        <p>{t('landing.loadFailed')}</p>
        <button type="button" className="button" onClick={() => void (record.isError ? record.refetch() : tombstone.refetch())}>
          {t('landing.retry')}
        </button>
      </div>
    );
  }
  if (published) return <Landing record={record.data!} attached={attached} />;
  if (tombstone.data) return <TombstonePage tombstone={tombstone.data} />;
  return <NotFoundPage />;
}

function Landing({ record, attached }: { record: MetadataRecord; attached: ReturnType<typeof useAttached> }) {
  const { t } = useTranslation();
  const versions = textVersions(record);
  const available = (Object.keys(versions) as Language[]).filter((language) => versions[language].title || versions[language].description);
  const [shown, setShown] = useState<Language>(available.includes(pageLanguage) ? pageLanguage : record.language);
  const text = versions[shown];
  const pageTitle = versions[pageLanguage].title || versions[record.language].title;

  useEffect(() => {
    document.title = `${pageTitle} - ${t(`site.${siteVariant()}.title`)}`;
  }, [pageTitle, t]);

  return (
    <article className="lp" aria-labelledby="lp-title">
      <nav aria-label={t('landing.breadcrumb')} className="lp-breadcrumb">
        <ol>
          <li>
            <Link to="/">{t('nav.home')}</Link>
          </li>
          <li>
            <Link to="/data/">{t('nav.data')}</Link>
          </li>
        </ol>
      </nav>
      <header className="lp-header">
        <h1 id="lp-title" lang={languageTag(shown)}>
          {text.title || versions[record.language].title}
        </h1>
        {available.length > 1 && (
          <div className="lp-versions" role="group" aria-label={t('landing.versions.label')}>
            {available.map((language) => (
              <button key={language} type="button" lang={languageTag(language)} aria-pressed={language === shown} onClick={() => setShown(language)}>
                {t(`landing.versions.${language}`)}
              </button>
            ))}
          </div>
        )}
      </header>

      <div className="lp-layout">
        <Section id="lp-abstract" title={t('landing.sections.abstract')} className="lp-abstract">
          {text.description ? (
            <div lang={languageTag(shown)}>
              {text.description.split(/\n+/).map((paragraph, index) => (
                <p key={index}>{paragraph}</p>
              ))}
            </div>
          ) : (
            <p className="lp-muted">{t('landing.noAbstract')}</p>
          )}
        </Section>

        <aside className="lp-aside">
          {attached.thumbnail.data && <img className="lp-thumbnail" src={attached.thumbnail.data.image} alt={t('landing.thumbnail')} width={320} height={240} decoding="async" />}
          <Facts record={record} />
          <Access record={record} />
          <Contact record={record} />
        </aside>

        <div className="lp-main">
          <People links={attached.authors.data} />
          <Section id="lp-keywords" title={t('landing.sections.keywords')}>
            <Keywords links={attached.keywords.data} />
          </Section>
          <Coverage record={record} />
          <Details record={record} />
          <Section id="lp-files" title={t('landing.sections.files')}>
            <FileList id={record.id} />
          </Section>
          <TableList id={record.id} />
          <Section id="lp-documents" title={t('landing.sections.documents')}>
            <Documents files={attached.documents.data} />
          </Section>
          <Section id="lp-literature" title={t('landing.sections.literature')}>
            <Literature citations={attached.literature.data} />
          </Section>
          <Section id="lp-funding" title={t('landing.sections.funding')}>
            <Funding funds={attached.funds.data} />
          </Section>
          <CitePanel record={record} language={pageLanguage} requiredCitation={requiredCitation(record, pageLanguage)} />
        </div>
      </div>
    </article>
  );
}
