/**
 * The exports module's one face: a published record's exports and citations (the service), their
 * routes and the landing page's content negotiation (`exportsForLanding`), and the citable record
 * model with the DataCite mapping that DOI registration and the OAI-PMH feed write from.
 */
export { ExportsService, type LandingFacts, type RenderedExport } from './exports.service.js';
export { exportsForLanding, exportsRoutes, type TombstoneOf } from './exports.routes.js';
export {
  LANGUAGE_TAGS,
  bareDoi,
  citableRecordOf,
  dayOf,
  doiUrl,
  hasHan,
  inLanguages,
  licenseFacts,
  textIn,
  type CitablePerson,
  type CitableRecord,
  type SiteFacts,
  type Texts,
} from './citable-record.js';
export { dataciteXml } from './datacite.js';
export { xmlOf, type XmlMapping } from './xml-mappings.js';
