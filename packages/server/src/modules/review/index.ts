/** The review module's one face: its service (steps, views, mails), its routes and the types others name. */
export { ReviewService, type ReviewServiceOptions } from './review.service.js';
export { reviewRoutes } from './review.routes.js';
export type { DeskFilter, ReviewListRow, ReviewRow } from './review.repo.js';
