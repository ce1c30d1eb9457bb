import { THUMBNAIL_MIME_TYPES, type ExportFormat, type Language } from '@portal/shared';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { canonicalUrl, landingPath, type TypedLink } from '../landing/index.js';
import { StoredFiles } from '../files/index.js';
import { readAttached } from '../metadata/index.js';
import type { MetadataAccess } from '../metadata/index.js';
import { citableRecordOf, dayOf, doiUrl, LANGUAGE_TAGS, licenseFacts, textIn, type CitablePerson, type CitableRecord, type SiteFacts } from './citable-record.js';
import type { DownloadableFile, MeasuredVariable } from './json-ld.js';

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
  turtle: { type: 'text/turtle; charset=utf-8', ending: 'dcat.ttl' },
  rdfxml: { type: 'application/rdf+xml; charset=utf-8', ending: 'dcat.rdf' },
};

/** The profile that tells the two JSON-LD exports apart (a `profile` media type parameter, a Link attribute). */
export const JSON_LD_PROFILES = { schemaorg: 'https://schema.org', dcat: 'http://www.w3.org/ns/dcat#' } as const;

/** The formats whose text depends on the language asked for (the others hold both languages). */
const LANGUAGE_BOUND: ReadonlySet<ExportFormat> = new Set(['schemaorg', 'csl', 'ris', 'bibtex', 'apa', 'gbt7714']);
/** The formats that name the data files one by one. */
const WITH_FILES: ReadonlySet<ExportFormat> = new Set(['schemaorg', 'dcat', 'turtle', 'rdfxml']);
/** The metadata exports a landing page points machines to (signposting `describedby`, `<link rel="alternate">`), in this order. */
const DESCRIBED_BY: readonly ExportFormat[] = ['datacite', 'iso19139', 'dcat', 'turtle', 'rdfxml', 'schemaorg', 'csl', 'ris', 'bibtex'];
/** At most this many files are named one by one in JSON-LD and RDF; the linkset names every one. */
export const LISTED_FILES = 100;
/** The landing page's Link header names the files (`item`) when there are at most this many; else the linkset does (a header stays within what proxies take). */
export const ITEMS_IN_HEADER = 10;
/** Upper bound of the files a linkset names. */
const LINKSET_FILES = 100_000;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The DCAT record as RDF: its JSON-LD's triples written as Turtle or RDF/XML (rdf.ts). */
async function dcatRdf(record: CitableRecord, files: readonly DownloadableFile[], syntax: 'turtle' | 'rdfXml'): Promise<string> {
  const [{ dcatDataset, DCAT_CONTEXT }, rdf] = await Promise.all([import('./json-ld.js'), import('./rdf.js')]);
  return rdf[syntax](await rdf.quadsOf(dcatDataset(record, files)), rdf.prefixesOf(DCAT_CONTEXT));
}

/** Each format's mapping of the model, in a language (the XML and DCAT forms hold both), with the data files where it names them. */
type Renderer = (record: CitableRecord, language: Language, files: readonly DownloadableFile[], variables: readonly MeasuredVariable[]) => Promise<string>;
const RENDERERS: Record<ExportFormat, Renderer> = {
  datacite: async (record) => (await import('./datacite.js')).dataciteXml(record),
  iso19139: async (record) => (await import('./iso19139.js')).iso19139Xml(record),
  dcat: async (record, _language, files) => json((await import('./json-ld.js')).dcatDataset(record, files)),
  turtle: async (record, _language, files) => dcatRdf(record, files, 'turtle'),
  rdfxml: async (record, _language, files) => dcatRdf(record, files, 'rdfXml'),
  schemaorg: async (record, language, files, variables) => json((await import('./json-ld.js')).schemaOrgDataset(record, language, files, variables)),
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
  /** `<link rel="alternate" type>` of each export. */
  exportLinks: { href: string; type: string; title: string }[];
  /** The thumbnail's address, '' when the record has none. */
  image: string;
  /** The FAIR Signposting links of the landing page (its Link header). */
  signposts: TypedLink[];
}

/** An author's ORCID iD as its https address, when the model carries one (people's identifiers may not be there yet). */
export function orcidUrlOf(person: CitablePerson): string {
  const value = 'orcid' in person && typeof person.orcid === 'string' ? person.orcid.trim() : '';
  const id = /(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$/i.exec(value)?.[1];
  return id ? `https://orcid.org/${id.toUpperCase()}` : '';
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
  private readonly files: StoredFiles;

  constructor(
    private readonly db: Db,
    private readonly access: MetadataAccess,
    private readonly site: SiteFacts,
    /** The variables a published record's tables measure (modules/tables, given by app.ts). */
    private readonly variablesOf: (id: string) => Promise<MeasuredVariable[]> = async () => [],
  ) {
    this.files = new StoredFiles(db);
  }

  /** Where a data file is downloaded (the files' route decides who may). */
  fileUrl(fileId: string): string {
    return `${this.site.publicUrl}/api/metadata/meta-file/${encodeURIComponent(fileId)}/download/`;
  }

  /** Where an export is downloaded, in the language of the page that names it when its text depends on one. */
  exportUrl(id: string, format: ExportFormat, language: Language): string {
    return `${this.site.publicUrl}/api/metadata/metadata/${encodeURIComponent(id)}/export/?format=${format}${LANGUAGE_BOUND.has(format) ? `&lang=${language}` : ''}`;
  }

  /** The landing page of a record in a language (its canonical address). */
  landingUrl(id: string, language: Language): string {
    return canonicalUrl(this.site.publicUrl, language, landingPath(id));
  }

  /** The record's data files, the first `limit`, in the order of its landing page, and how many it has. */
  async downloadableFiles(id: string, limit = LISTED_FILES): Promise<{ count: number; files: DownloadableFile[] }> {
    const { count, rows } = await this.files.page('file', id, { offset: 0, limit });
    return { count, files: rows.map((row) => ({ name: row.name, mediaType: row.mime, bytes: Number(row.size), url: this.fileUrl(row.id) })) };
  }

  /** The exports a landing page names, with their media types (a record without DOI has no DataCite form). */
  private describedBy(record: CitableRecord, language: Language): { format: ExportFormat; href: string; type: string; profile?: string }[] {
    return DESCRIBED_BY.filter((format) => format !== 'datacite' || record.doi).map((format) => ({
      format,
      href: this.exportUrl(record.id, format, language),
      type: EXPORT_MEDIA[format].type.split(';')[0]!,
      ...(format === 'schemaorg' || format === 'dcat' ? { profile: JSON_LD_PROFILES[format] } : {}),
    }));
  }

  /**
   * The landing page's signposting links (FAIR Signposting level 1): cite-as (the DOI, else the page
   * itself), its types, each export, the files given (`item`), the licence, the authors' ORCID iDs,
   * and the linkset in both forms.
   */
  private landingSignposts(record: CitableRecord, language: Language, items: readonly DownloadableFile[]): TypedLink[] {
    const anchor = record.url[language];
    const linkset = `${anchor}linkset`;
    const link = (rel: string, href: string, extra: Partial<TypedLink> = {}): TypedLink => ({ anchor, rel, href, ...extra });
    return [
      link('cite-as', record.doi ? doiUrl(record.doi) : anchor),
      link('type', 'https://schema.org/Dataset'),
      link('type', 'https://schema.org/AboutPage'),
      ...this.describedBy(record, language).map(({ href, type, profile }) => link('describedby', href, { type, ...(profile ? { profile } : {}) })),
      ...items.map((file) => link('item', file.url, { type: file.mediaType || 'application/octet-stream' })),
      ...(record.license ? [link('license', licenseFacts(record.license).deed)] : []),
      ...record.creators
        .map(orcidUrlOf)
        .filter(Boolean)
        .map((orcid) => link('author', orcid)),
      link('linkset', linkset, { type: 'application/linkset+json' }),
      link('linkset', linkset, { type: 'application/linkset' }),
    ];
  }

  /**
   * The linkset of a published record's landing page in a language (RFC 9264): the page's signposts
   * with every data file, each file's way back to the page (`collection`), each export's (`describes`).
   */
  async linkset(id: string, language: Language): Promise<TypedLink[]> {
    const record = await this.load(id);
    const { files } = await this.downloadableFiles(id, LINKSET_FILES);
    const back = { href: record.url[language], type: 'text/html' };
    return [
      ...this.landingSignposts(record, language, files).filter((link) => link.rel !== 'linkset'),
      ...files.map((file): TypedLink => ({ anchor: file.url, rel: 'collection', ...back })),
      ...this.describedBy(record, language).map(({ href }): TypedLink => ({ anchor: href, rel: 'describes', ...back })),
    ];
  }

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
    const [{ count, files }, thumbnail, variables] = await Promise.all([
      this.downloadableFiles(id),
      this.files.mediaPage(id, 'thumbnail', { offset: 0, limit: 1 }),
      this.variablesOf(id),
    ]);
    const [jsonLd, citation] = await Promise.all([
      RENDERERS.schemaorg(record, language, files, variables),
      (await import('./citations.js')).formatCitation(record, language === 'en' ? 'apa' : 'gbt7714', language, { accessed: day }),
    ]);
    const image = thumbnail.rows.find((row) => (THUMBNAIL_MIME_TYPES as readonly string[]).includes(row.mime));
    const keywords = record.keywords.map((k) => textIn(k.name, language)).filter(Boolean);
    const abstract = textIn(record.abstract, language).replace(/\s+/g, ' ').trim();
    const facts: LandingFacts = {
      jsonLd: JSON.stringify(JSON.parse(jsonLd)),
      citation,
      exportLinks: this.describedBy(record, language).map(({ format, href, type }) => ({ href, type, title: format })),
      image: image ? `${this.site.publicUrl}/api/metadata/meta-media/${encodeURIComponent(image.id)}/image/` : '',
      signposts: this.landingSignposts(record, language, count <= ITEMS_IN_HEADER ? files : []),
      citationTags: [
        { name: 'citation_title', content: textIn(record.title, language) },
        // The cited creators (shared rules/creators.ts), else the data centre, as in the citation.
        ...(record.creators.length
          ? record.creators.map((person) => ({ name: 'citation_author', content: textIn(person.name, language) }))
          : [{ name: 'citation_author', content: textIn(record.publisher, language) }]),
        { name: 'citation_publication_date', content: dayOf(record.publishedAt).replaceAll('-', '/') },
        { name: 'citation_publisher', content: textIn(record.publisher, language) },
        // Highwire Press tags Google Scholar reads: keywords separated by semicolons, the language of the title given.
        ...(keywords.length ? [{ name: 'citation_keywords', content: keywords.join('; ') }] : []),
        { name: 'citation_language', content: LANGUAGE_TAGS[record.title[language] ? language : record.language] },
        ...(abstract ? [{ name: 'citation_abstract', content: abstract }] : []),
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
    const files = WITH_FILES.has(format) ? (await this.downloadableFiles(id)).files : [];
    const variables = format === 'schemaorg' ? await this.variablesOf(id) : [];
    const body = await RENDERERS[format](record, language, files, variables);
    return { body, type: EXPORT_MEDIA[format].type, filename: `${record.id}.${EXPORT_MEDIA[format].ending}` };
  }
}
