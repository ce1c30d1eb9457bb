import { useTranslation } from 'react-i18next';
import type { Language, MetadataRecord } from '@portal/shared';
import { siteVariant } from '../../app/site';
import { showToast } from '../../components/toast';
import { exportUrl, useCitationText } from './api';

type Style = 'gbt7714' | 'apa';

/** The reference files and metadata formats offered, in the order shown (DataCite needs a DOI). */
const REFERENCE_FORMATS = ['ris', 'bibtex', 'csl'] as const;
const METADATA_FORMATS = ['datacite', 'iso19139', 'dcat', 'schemaorg'] as const;

/**
 * How to cite the dataset: its citation in GB/T 7714-2015 and APA, made by the server from the CSL
 * styles (the page's usual style first), each with a copy button; the sentence the authors ask
 * for, the acknowledgement of the data centre, and the reference and metadata files.
 */
export function CitePanel({ record, language, requiredCitation }: { record: MetadataRecord; language: Language; requiredCitation: string }) {
  const { t } = useTranslation();
  const styles: Style[] = language === 'en' ? ['apa', 'gbt7714'] : ['gbt7714', 'apa'];
  const site = t(`site.${siteVariant()}.title`);
  const metadata = METADATA_FORMATS.filter((format) => format !== 'datacite' || record.doi);
  return (
    <section id="cite" className="lp-section lp-cite" aria-labelledby="lp-cite">
      <h2 id="lp-cite">{t('landing.cite.title')}</h2>
      {styles.map((style) => (
        <CitationText key={style} id={record.id} style={style} language={language} />
      ))}
      {requiredCitation && (
        <div className="lp-cite-note">
          <h3>{t('landing.cite.required')}</h3>
          <p>{requiredCitation}</p>
        </div>
      )}
      <div className="lp-cite-note">
        <h3>{t('landing.cite.acknowledgement')}</h3>
        <p>{t('landing.cite.acknowledgementText', { site, url: location.origin })}</p>
      </div>
      <div className="lp-cite-files">
        <FormatLinks id={record.id} language={language} label={t('landing.cite.references')} formats={REFERENCE_FORMATS} />
        <FormatLinks id={record.id} language={language} label={t('landing.cite.metadata')} formats={metadata} />
      </div>
    </section>
  );
}

function CitationText({ id, style, language }: { id: string; style: Style; language: Language }) {
  const { t } = useTranslation();
  const citation = useCitationText(id, style, language);
  const name = t(`landing.cite.styles.${style}`);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      showToast('success', t('landing.cite.copied'));
    } catch {
      showToast('error', t('landing.cite.copyFailed'));
    }
  };
  return (
    <figure className="lp-citation">
      <figcaption>{name}</figcaption>
      {citation.data ? (
        <div className="lp-citation-row">
          <p>{citation.data}</p>
          <button type="button" className="button" aria-label={t('landing.cite.copyStyle', { style: name })} onClick={() => void copy(citation.data)}>
            {t('landing.cite.copy')}
          </button>
        </div>
      ) : citation.isError ? (
        <p className="lp-muted">{t('landing.cite.loadFailed')}</p>
      ) : (
        <p className="lp-muted" aria-busy="true" />
      )}
    </figure>
  );
}

function FormatLinks({ id, language, label, formats }: { id: string; language: Language; label: string; formats: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <p>
      <span className="lp-cite-label">{label}</span>
      {formats.map((format) => (
        <a key={format} href={exportUrl(id, format, language)} download>
          {t(`landing.cite.formats.${format}`)}
        </a>
      ))}
    </p>
  );
}
