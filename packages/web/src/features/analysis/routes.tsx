import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/lazy';

const MyMethodsPage = lazyPage(() => import('./pages/MyMethodsPage'));
const ExplorePage = lazyPage(() => import('./pages/ExplorePage'));
const SharePage = lazyPage(() => import('./pages/SharePage'));
const RunPage = lazyPage(() => import('./pages/RunPage'));
const CartAnalyzePage = lazyPage(() => import('./pages/CartAnalyzePage'));

/** The personal centre's pages of this feature (issue 20), spread into the shell's routes by app/personalRouter.tsx. */
export const analysisRoutes: RouteObject[] = [
  { path: 'analyze', element: <MyMethodsPage /> },
  { path: 'analyze/exploredways', element: <ExplorePage /> },
  { path: 'analyze/methodsharing', element: <SharePage /> },
  { path: 'analyze/run/:id', element: <RunPage /> },
  { path: 'data/analyze', element: <CartAnalyzePage /> },
];
