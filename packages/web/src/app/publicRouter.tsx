import { Suspense, type ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { PageSpinner } from '../components/PageSpinner';
import { lazyPage } from './lazy';
import { PublicLayout } from './PublicLayout';

const HomePage = lazyPage(() => import('../features/home/HomePage'));
const AboutPage = lazyPage(() => import('../features/home/AboutPage'));
const EmptyListPage = lazyPage(() => import('../features/home/EmptyListPage'));
const NotFoundPage = lazyPage(() => import('../features/home/NotFoundPage'));
const AdminPage = lazyPage(() => import('../features/admin/AdminPage'));
const ReviewDeskPage = lazyPage(() => import('../features/admin/ReviewDeskPage'));

const page = (node: ReactNode) => <Suspense fallback={<PageSpinner />}>{node}</Suspense>;

/**
 * Public site: real paths under an optional language prefix (`/en/about`, `/zh-hans/data/`). This
 * module imports nothing of the personal centre (its shell, menu, account screens, editor), so that
 * public pages never load that code (main.tsx imports one router or the other).
 */
export function createPublicRouter(basename: string) {
  return createBrowserRouter(
    [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: page(<HomePage />) },
          { path: 'index', element: page(<HomePage />) },
          { path: 'about', element: page(<AboutPage />) },
          { path: 'data', element: page(<EmptyListPage section="data" />) },
          { path: 'news', element: page(<EmptyListPage section="news" />) },
          { path: 'admin', element: page(<AdminPage />) },
          { path: 'admin/review', element: page(<ReviewDeskPage />) },
          { path: '*', element: page(<NotFoundPage />) },
        ],
      },
    ],
    { basename },
  );
}
