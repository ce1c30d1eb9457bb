import { stripIllegalText } from '@portal/shared';
import { xmlOf, type CitableRecord } from '../exports/index.js';
import type { OaiItem } from './oai.repo.js';

/**
 * The feed's metadata formats (ListMetadataFormats, the metadataPrefix of the other verbs): each
 * one's schema and namespace, and how a record is written in it. The protocol's verbs are
 * oai.service.ts.
 */

/** DataCite's OAI-PMH envelope (https://schema.datacite.org/oai/oai-1.1/). */
const OAI_DATACITE_NS = 'http://schema.datacite.org/oai/oai-1.1/';
/** The DataCite kernel the DataCite export follows (exports/datacite.ts). */
const DATACITE_SCHEMA_VERSION = '4.5';

export interface MetadataFormat {
  schema: string;
  namespace: string;
  /** datacite, oai_datacite: DataCite identifies a resource by its DOI only; records without one are not offered. */
  needsDoi: boolean;
  /** The format's root element for a record (without XML declaration). */
  render(record: CitableRecord, site: { datacentreSymbol: string }): Promise<string>;
}

/** The mappings are loaded on first use, as the exports' are (exports' xmlOf). */
const withoutDeclaration = (xml: string) => xml.replace(/^<\?xml[^>]*\?>\s*/, '');
export const METADATA_FORMATS: Record<string, MetadataFormat> = {
  oai_dc: {
    schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
    namespace: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
    needsDoi: false,
    render: async (record) => (await import('./oai-dc.js')).oaiDcXml(record),
  },
  // DataCite kernel 4 as DataCite's own OAI-PMH provider serves it under both prefixes: `datacite`
  // the `resource` element itself (the same document as the DataCite export), `oai_datacite` the
  // resource in DataCite's OAI envelope 1.1 (datacentreSymbol, schemaVersion, payload).
  datacite: {
    schema: 'https://schema.datacite.org/meta/kernel-4.5/metadata.xsd',
    namespace: 'http://datacite.org/schema/kernel-4',
    needsDoi: true,
    render: async (record) => withoutDeclaration(await xmlOf('datacite', record)),
  },
  oai_datacite: {
    schema: `${OAI_DATACITE_NS}oai.xsd`,
    namespace: OAI_DATACITE_NS,
    needsDoi: true,
    render: async (record, site) => {
      const resource = withoutDeclaration(await xmlOf('datacite', record));
      return [
        `<oai_datacite xmlns="${OAI_DATACITE_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${OAI_DATACITE_NS} ${OAI_DATACITE_NS}oai.xsd">`,
        tag('schemaVersion', DATACITE_SCHEMA_VERSION),
        tag('datacentreSymbol', site.datacentreSymbol),
        `<payload>\n${resource}\n</payload>`,
        '</oai_datacite>',
      ].join('\n');
    },
  },
  iso19139: {
    schema: 'http://www.isotc211.org/2005/gmd/gmd.xsd',
    namespace: 'http://www.isotc211.org/2005/gmd',
    needsDoi: false,
    render: async (record) => withoutDeclaration(await xmlOf('iso19139', record)),
  },
  // DIF 10 under the prefix GCMD's CMR OAI-PMH gateway gives it (its `dif` is DIF 9).
  dif10: {
    schema: 'https://cdn.earthdata.nasa.gov/dif/10.x/dif_v10.2.xsd',
    namespace: 'http://gcmd.gsfc.nasa.gov/Aboutus/xml/dif/',
    needsDoi: false,
    render: async (record) => withoutDeclaration(await xmlOf('dif10', record)),
  },
};

export const formatsOf = (item: OaiItem) => Object.keys(METADATA_FORMATS).filter((prefix) => item.has_doi || !METADATA_FORMATS[prefix]!.needsDoi);

/** Text as XML character data or an attribute value: escaped, without the characters XML cannot carry. */
export function escapeXml(text: string): string {
  return stripIllegalText(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export const tag = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`;
