/**
 * The OAI-PMH module's one face: the feed's items kept in step with the records (OaiIndex), the
 * protocol's service and its routes, the resumption tokens' key.
 */
export { OaiIndex } from './oai-index.js';
export { OaiRepo } from './oai.repo.js';
export { OaiService } from './oai.service.js';
export { oaiRoutes } from './oai.routes.js';
export { tokenKey } from './resumption-token.js';
