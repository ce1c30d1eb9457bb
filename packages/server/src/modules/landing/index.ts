/**
 * The landing module's one face: a dataset's landing page `/{lang}/data/{id}/` (served in the web
 * app's shell), its head, its tombstone and linkset calls, the public site's addresses and FAIR
 * Signposting. It imports no code of exports (which links to it): app.ts gives it `LandingExports`.
 */
export { LANGUAGE_PREFIXES, canonicalUrl, landingPath, languageAlternates } from './addresses.js';
export { type FrameIcons } from './first-screen.js';
export { DESCRIPTION_LENGTH, landingHeadTags, metaDescription, type LandingPageHead } from './landing-head.js';
export { landingPages } from './landing-page.js';
export { LandingRepo } from './landing.repo.js';
export { landingRoutes, tombstoneOf, type LandingExports } from './landing.routes.js';
export { LandingService, type LandingHead } from './landing.service.js';
export { linkHeader, linksetJson, linksetText, uriReference, type TypedLink } from './signposting.js';
