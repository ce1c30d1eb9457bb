import type { ExportFormat, Language } from '@portal/shared';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { readAttached } from '../metadata/attached-rows.js';
import type { MetadataAccess } from '../metadata/metadata-access.js';
import { citableRecordOf, dayOf, doiUrl, textIn, type CitableRecord, type SiteFacts } from './citable-record.js';

/**
 * A published record in each export format. The mappings are loaded on the first export asked for
 * (citation-js, behind the citation formats, is the heaviest), so that the server's start and its
 * other requests never pay for them.
 */

/** The media type and file name ending of each format. */
export const EXPORT_MEDIA: Record<ExportFormat, { type: string; ending: string }> = {
  datacite: { type: 'application/vnd.datacite.datacite+xml; charset=utf-8', ending: 'datacite.xml' },
  iso19139: { type: 'application/xml; charset=utf-8', ending: 'iso19139.xml' },
  dcat: { type: 'application/ld+json; charset=utf-8', ending: 'dcat.jsonld' },
  schemaorg: { type: 'application/ld+json; charset=utf-8', ending: 'schemaorg.jsonld' },
  ris: { type: 'application/x-research-info-systems; charset=utf-8', ending: 'ris' },
  bibtex: { type: 'application/x-bibtex; charset=utf-8', ending: 'bib' },
  csl: { type: 'application/vnd.citationstyles.csl+json; charset=utf-8', ending: 'csl.json' },
  apa: { type: 'text/plain; charset=utf-8', ending: 'apa.txt' },
  gbt7714: { type: 'text/plain; charset=utf-8', ending: 'gbt7714.txt' },
};

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Each format's mapping of the model, in a language (the XML and DCAT forms hold both). */
const RENDERERS: Record<ExportFormat, (record: CitableRecord, language: Language) => Promise<string>> = {
  datacite: async (record) => (await import('./datacite.js')).dataciteXml(record),
  iso19139: async (record) => (await import('./iso19139.js')).iso19139Xml(record),
  dcat: async (record) => json((await import('./json-ld.js')).dcatDataset(record)),
  schemaorg: async (record, language) => json((await import('./json-ld.js')).schemaOrgDataset(record, language)),
  csl: async (record, language) => json([(await import('./citations.js')).cslItem(record, language)]),
  ris: async (record, language) => (await import('./citations.js')).formatReference(record, 'ris', language),
  bibtex: async (record, language) => (await import('./citations.js')).formatReference(record, 'bibtex', language),
  apa: async (record, language) => `${await (await import('./citations.js')).formatCitation(record, 'apa', language)}\n`,
  gbt7714: async (record, language) => `${await (await import('./citations.js')).formatCitation(record, 'gbt7714', language)}\n`,
};

/**
 * What a published record's landing page carries for crawlers that run no script: its schema.org
 * JSON-LD, its citation in the page's language (GB/T 7714 in Chinese, APA in English) and the
 * citation_* tags Google Scholar reads.
 */
export interface LandingFacts {
  jsonLd: string;
  citation: string;
  citationTags: { name: string; content: string }[];
}

/**
 * A landing page's facts are made again when the record changed (its updated_at) and each new day
 * (UTC): the GB/T 7714 citation carries the day it is made as its access date.
 */
const LANDING_FACTS_KEPT = 1000;

export interface RenderedExport {
  body: string;
  type: string;
  /** A download name: the record's id and the format's ending. */
  filename: string;
}

export class ExportsService {
  constructor(
    private readonly db: Db,
    private readonly access: MetadataAccess,
    private readonly site: SiteFacts,
  ) {}

  /** The model of a published record; NOT_FOUND for any other (unknown, draft, in review, unpublished). */
  async load(id: string): Promise<CitableRecord> {
    const record = await this.access.find(id);
    if (!record || record.status !== 'published') throw new AppError('NOT_FOUND', 'metadata.notFound');
    const attached = await readAttached(this.db, [record.id], { literature: true, files: true });
    return citableRecordOf(record, attached.get(record.id)!, this.site);
  }

  private readonly landing = new Map<string, { updatedAt: string; day: string; facts: LandingFacts }>();

  async landingFacts(id: string, language: Language): Promise<LandingFacts> {
    const record = await this.load(id);
    const key = `${id}\u0000${language}`;
    const kept = this.landing.get(key);
    const day = new Date().toISOString().slice(0, 10);
    if (kept?.updatedAt === record.updatedAt && kept.day === day) return kept.facts;
    const [jsonLd, citation] = await Promise.all([
      RENDERERS.schemaorg(record, language),
      (await import('./citations.js')).formatCitation(record, language === 'en' ? 'apa' : 'gbt7714', language, { accessed: day }),
    ]);
    const facts: LandingFacts = {
      jsonLd: JSON.stringify(JSON.parse(jsonLd)),
      citation,
      citationTags: [
        { name: 'citation_title', content: textIn(record.title, language) },
        // The cited creators (shared rules/creators.ts), else the data centre, as in the citation.
        ...(record.creators.length
          ? record.creators.map((person) => ({ name: 'citation_author', content: textIn(person.name, language) }))
          : [{ name: 'citation_author', content: textIn(record.publisher, language) }]),
        { name: 'citation_publication_date', content: dayOf(record.publishedAt).replaceAll('-', '/') },
        { name: 'citation_publisher', content: textIn(record.publisher, language) },
        ...(record.doi ? [{ name: 'citation_doi', content: record.doi }] : []),
        { name: 'citation_public_url', content: record.url[language] },
        { name: 'dcterms.bibliographicCitation', content: citation },
        ...(record.doi ? [{ name: 'dcterms.identifier', content: doiUrl(record.doi) }] : []),
      ].filter((tag) => tag.content),
    };
    this.landing.set(key, { updatedAt: record.updatedAt, day, facts });
    if (this.landing.size > LANDING_FACTS_KEPT) this.landing.delete(this.landing.keys().next().value!);
    return facts;
  }

  /** The citation of a record that was published and is no longer (its tombstone keeps it citable). */
  async withdrawnCitation(id: string, language: Language): Promise<string> {
    const record = await this.access.find(id);
    if (!record || record.status !== 'NotPublished') throw new AppError('NOT_FOUND', 'metadata.notFound');
    const attached = await readAttached(this.db, [record.id], { literature: true, files: true });
    const citable = citableRecordOf(record, attached.get(record.id)!, this.site);
    return (await import('./citations.js')).formatCitation(citable, language === 'en' ? 'apa' : 'gbt7714', language);
  }

  /** The record's citation in the language's style (GB/T 7714 or APA), published or withdrawn; '' for any other record. */
  async citationOf(id: string, language: Language): Promise<string> {
    try {
      return (await this.landingFacts(id, language)).citation;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    try {
      return await this.withdrawnCitation(id, language);
    } catch (error) {
      if (error instanceof AppError) return '';
      throw error;
    }
  }

  async render(id: string, format: ExportFormat, language: Language): Promise<RenderedExport> {
    const record = await this.load(id);
    const body = await RENDERERS[format](record, language);
    return { body, type: EXPORT_MEDIA[format].type, filename: `${record.id}.${EXPORT_MEDIA[format].ending}` };
  }
}
