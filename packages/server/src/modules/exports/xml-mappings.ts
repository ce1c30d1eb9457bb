import type { CitableRecord } from './citable-record.js';

/** The XML mappings other modules write a citable record in (the OAI-PMH feed's formats). */
export type XmlMapping = 'datacite' | 'iso19139' | 'dif10';

/** A record in one XML mapping, with its XML declaration; each mapping is loaded on first use. */
export async function xmlOf(mapping: XmlMapping, record: CitableRecord): Promise<string> {
  if (mapping === 'datacite') return (await import('./datacite.js')).dataciteXml(record);
  if (mapping === 'iso19139') return (await import('./iso19139.js')).iso19139Xml(record);
  return (await import('./dif10.js')).dif10Xml(record);
}
