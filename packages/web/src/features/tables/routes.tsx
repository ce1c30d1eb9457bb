import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/lazy';

const TableListPage = lazyPage(() => import('./pages/TableListPage'));
const TableViewerPage = lazyPage(() => import('./pages/TableViewerPage'));

/** The personal centre's pages of this feature (issue 20), spread into the shell's routes by app/personalRouter.tsx. */
export const tableRoutes: RouteObject[] = [
  { path: 'data/detailedData', element: <TableListPage /> },
  { path: 'data/detailedDataDetail/:id/:code', element: <TableViewerPage /> },
];
