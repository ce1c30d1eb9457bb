/** The orders module's one face: its service (basket, applications, handling, queries, vouchers, the download rule), its routes and the types others name. */
export { OrdersService } from './orders.service.js';
export type { OrdersServiceOptions } from './orders-context.js';
export { DownloadAccess } from './download-access.js';
export { ordersRoutes } from './orders.routes.js';
export { downloadRoutes } from './download.routes.js';
