import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { languageTag, type Language, type Tombstone } from '@portal/shared';
import { pageLanguage } from '../../app/i18n';
import { siteVariant } from '../../app/site';
import { formatDate } from '../../components/format';
import { doiUrl } from './landingData';

/**
 * What stays of a dataset the data centre unpublished (the server answered 410): its title in both
 * languages, DOI, dates and the reason given, so that a citation of it still leads somewhere.
 */
export function TombstonePage({ tombstone }: { tombstone: Tombstone }) {
  const { t } = useTranslation();
  const other: Language = tombstone.language === 'en' ? 'zh-hans' : 'en';
  // The title in the page's language first.
  const [first, second] =
    tombstone.language === pageLanguage || !tombstone.translation_title
      ? [
          { language: tombstone.language, title: tombstone.title },
          { language: other, title: tombstone.translation_title },
        ]
      : [
          { language: other, title: tombstone.translation_title },
          { language: tombstone.language, title: tombstone.title },
        ];

  useEffect(() => {
    document.title = `${first.title} - ${t(`site.${siteVariant()}.title`)}`;
  }, [first.title, t]);

  return (
    <article className="lp lp-tombstone" aria-labelledby="lp-tombstone-title">
      <div className="lp-card">
        <h1 id="lp-tombstone-title">{t('landing.tombstone.title')}</h1>
        <p>{t('landing.tombstone.body')}</p>
        <dl className="lp-terms">
          <div>
            <dt>{t('landing.tombstone.datasetTitle')}</dt>
            <dd lang={languageTag(first.language)}>{first.title}</dd>
          </div>
          {second.title && (
            <div>
              <dt>{t('landing.tombstone.otherTitle', { language: t(`landing.options.language.${second.language}`) })}</dt>
              <dd lang={languageTag(second.language)}>{second.title}</dd>
            </div>
          )}
          {tombstone.doi && (
            <div>
              <dt>{t('landing.tombstone.doi')}</dt>
              <dd>
                <a href={doiUrl(tombstone.doi)}>{doiUrl(tombstone.doi)}</a>
              </dd>
            </div>
          )}
          {tombstone.published_at && (
            <div>
              <dt>{t('landing.tombstone.published')}</dt>
              <dd>{formatDate(tombstone.published_at)}</dd>
            </div>
          )}
          {tombstone.unpublished_at && (
            <div>
              <dt>{t('landing.tombstone.unpublished')}</dt>
              <dd>{formatDate(tombstone.unpublished_at)}</dd>
            </div>
          )}
          <div>
            <dt>{t('landing.tombstone.reason')}</dt>
            <dd>{tombstone.reason || t('landing.tombstone.noReason')}</dd>
          </div>
        </dl>
        <section id="cite" className="lp-cite" aria-labelledby="lp-cite">
          <h2 id="lp-cite">{t('landing.cite.title')}</h2>
          <p className="lp-citation">{tombstone.citation}</p>
        </section>
        <Link className="button button-primary" to="/data/">
          {t('landing.tombstone.search')}
        </Link>
      </div>
    </article>
  );
}
