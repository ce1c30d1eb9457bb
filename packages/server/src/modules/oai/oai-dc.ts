import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { stripIllegalText, type Language } from '@portal/shared';
import { dayOf, inLanguages, doiUrl, hasHan, LANGUAGE_TAGS, licenseFacts, textIn, type CitablePerson, type CitableRecord, type Texts } from '../exports/index.js';

/**
 * Simple Dublin Core (`oai_dc`, the format every OAI-PMH repository must offer) of a record, from
 * the same model as the other exports (exports/citable-record.ts):
 * - title, description (the abstract), subject (every keyword), publisher (the data centre) and
 *   rights (licence, sharing policy) in each language the record has, with xml:lang; the first
 *   rights is the access right as its COAR Access Right concept URI (exports/access-right.ts);
 * - creator: the data resource providers (else everyone linked, as DataCite does), contributor: the
 *   other roles; one element per person, the name in the record's language (else the other);
 * - date: the publication day, and while the protection period runs its end as OpenAIRE writes it
 *   (`info:eu-repo/date/embargoEnd/YYYY-MM-DD`); type: `Dataset` (DCMI Type); format: the data files' media types;
 * - identifier: the DOI as a URL, then the landing page in the record's language;
 * - language: the record's (BCP 47, as in the DataCite export);
 * - relation: the literature's DOI or link; coverage: the time as a DCMI Period and the box as a
 *   DCMI Box (one per side of the 180th meridian is not needed: a Box's limits may cross it).
 */

const OAI_DC = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
const DC = 'http://purl.org/dc/elements/1.1/';
export const OAI_DC_SCHEMA = 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd';

function element(parent: XMLBuilder, name: string, text: string, language?: Language) {
  if (text) parent.ele(`dc:${name}`, language ? { 'xml:lang': LANGUAGE_TAGS[language] } : {}).txt(text);
}

function bilingual(parent: XMLBuilder, record: CitableRecord, name: string, texts: Texts) {
  for (const { language, text } of inLanguages(record, texts)) element(parent, name, text, language);
}

function person(parent: XMLBuilder, record: CitableRecord, name: string, who: CitablePerson) {
  const text = textIn(who.name, record.language);
  element(parent, name, text, hasHan(text) ? 'zh-hans' : 'en');
}

/** The `oai_dc:dc` element (no XML declaration: it goes inside an OAI-PMH reply). */
export function oaiDcXml(record: CitableRecord): string {
  const dc = create().ele(OAI_DC, 'oai_dc:dc', {
    'xmlns:dc': DC,
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation': `${OAI_DC} ${OAI_DC_SCHEMA}`,
  });
  bilingual(dc, record, 'title', record.title);
  // The creators (shared rules/creators.ts), else the data centre, as every citation names them.
  for (const creator of record.creators) person(dc, record, 'creator', creator);
  if (!record.creators.length) bilingual(dc, record, 'creator', record.publisher);
  for (const keyword of record.keywords) bilingual(dc, record, 'subject', keyword.name);
  bilingual(dc, record, 'description', record.abstract);
  bilingual(dc, record, 'publisher', record.publisher);
  for (const contributor of record.contributors) person(dc, record, 'contributor', contributor);
  element(dc, 'date', dayOf(record.publishedAt));
  if (record.accessRight.embargoEnd) element(dc, 'date', `info:eu-repo/date/embargoEnd/${record.accessRight.embargoEnd}`);
  element(dc, 'type', 'Dataset');
  for (const type of record.files.mediaTypes) element(dc, 'format', type);
  if (record.doi) element(dc, 'identifier', doiUrl(record.doi));
  element(dc, 'identifier', record.url[record.language]);
  element(dc, 'language', LANGUAGE_TAGS[record.language]);
  for (const entry of record.literature) element(dc, 'relation', entry.doi ? doiUrl(entry.doi) : entry.link);
  if (record.temporal.start || record.temporal.end) {
    element(
      dc,
      'coverage',
      [record.temporal.start && `start=${record.temporal.start}`, record.temporal.end && `end=${record.temporal.end}`, 'scheme=W3C-DTF'].filter(Boolean).join('; '),
    );
  }
  if (record.box) {
    const { north, south, east, west } = record.box;
    element(dc, 'coverage', `northlimit=${north}; southlimit=${south}; westlimit=${west}; eastlimit=${east}; units=signed decimal degrees`);
  }
  element(dc, 'rights', record.accessRight.uri);
  if (record.license) {
    const license = licenseFacts(record.license);
    element(dc, 'rights', license.name, 'en');
    element(dc, 'rights', license.deed);
  }
  bilingual(dc, record, 'rights', record.conditionsOfAccess);
  // Text stored before input refused the characters XML cannot carry must not make the reply ill-formed.
  return stripIllegalText(dc.end({ headless: true, prettyPrint: true }));
}
