/** The DOI module's one face: registration with DataCite (the service, which follows every record change) and staff's routes. */
export { DoiService, type DoiServiceOptions } from './doi.service.js';
export { doiRoutes } from './doi.routes.js';
