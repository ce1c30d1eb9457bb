/**
 * The search module's one face: the public catalogue's index that follows every change of a
 * published record (SearchIndex), the search service and its routes, the kept reply texts the web
 * app's first screens carry, and the signal that the catalogue changed.
 */
export { SearchIndex } from './search-index.js';
export { SearchRepo } from './search.repo.js';
export { SearchService } from './search.service.js';
export { hotReplyText, searchReplyText, searchRoutes, statsReplyText } from './search.routes.js';
export { catalogueChanged } from './catalogue-changes.js';
