import { Suspense, type ReactNode } from 'react';
import { createBrowserRouter, matchRoutes, type Params, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/PageSpinner';
import HomePage from '../features/home/HomePage';
import { prefetchLanding } from '../features/landing/api';
import { loadWholeCatalogue } from './i18n';
import { lazyPage } from './lazy';
import { PublicLayout } from './PublicLayout';
import { queryClient } from './Providers';

const AboutPage = lazyPage(() => import('../features/home/AboutPage'));
const EmptyListPage = lazyPage(() => import('../features/home/EmptyListPage'));
const SearchPage = lazyPage(() => import('../features/search/SearchPage'));
const LandingPage = lazyPage(() => import('../features/landing/LandingPage'));
const VoucherCheckPage = lazyPage(() => import('../features/orders/public/VoucherCheckPage'));
const VoucherFormPage = lazyPage(() => import('../features/orders/public/VoucherFormPage'));
const NotFoundPage = lazyPage(() => import('../features/home/NotFoundPage'));
// The admin pages use Ant Design and the whole catalogue: both come with them, in chunks no other public page loads.
const AntdProviders = lazyPage(() => Promise.all([import('./AntdProviders'), loadWholeCatalogue()]).then(([module]) => module));
const AdminPage = lazyPage(() => import('../features/admin/AdminPage'));
const ReviewDeskPage = lazyPage(() => import('../features/review/desk/ReviewDeskPage'));

const page = (node: ReactNode) => <Suspense fallback={<PageSpinner />}>{node}</Suspense>;
const antdPage = (node: ReactNode) => page(<AntdProviders>{node}</AntdProviders>);

/**
 * Public site: real paths under an optional language prefix (`/en/about`, `/zh-hans/data/`). This
 * module imports nothing of the personal centre (its shell, menu, account screens, editor) nor Ant
 * Design, so that public pages stay light (main.tsx imports one router or the other). The home page,
 * the most visited, comes with this chunk rather than one request later.
 */
/** The public routes; `handle.page` is a route's lazily loaded page, which preloadPublicPage fetches. */
const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'index', element: <HomePage /> },
      { path: 'about', element: page(<AboutPage />), handle: { page: AboutPage } },
      { path: 'data', element: page(<SearchPage />), handle: { page: SearchPage } },
      { path: 'data/:id', element: page(<LandingPage />), handle: { page: LandingPage, data: (params: Params) => prefetchLanding(queryClient, params.id ?? '') } },
      { path: 'voucher', element: page(<VoucherFormPage />), handle: { page: VoucherFormPage } },
      { path: 'voucher/:code', element: page(<VoucherCheckPage />), handle: { page: VoucherCheckPage } },
      { path: 'news', element: page(<EmptyListPage section="news" />), handle: { page: EmptyListPage } },
      { path: 'admin', element: antdPage(<AdminPage />) },
      { path: 'admin/review', element: antdPage(<ReviewDeskPage />) },
      { path: '*', element: page(<NotFoundPage />), handle: { page: NotFoundPage } },
    ],
  },
];

export function createPublicRouter(basename: string) {
  return createBrowserRouter(routes, { basename });
}

/** What a route's `handle` may name: its lazily loaded page, and the data its first render waits for. */
interface RouteHandle {
  page?: { preload: () => Promise<void> };
  data?: (params: Params) => Promise<void>;
}

/**
 * Fetches the page the address shows before the first render, so that the first page of a visit
 * is drawn in one go rather than as a spinner and then the page (its chunks are named in the
 * HTML's head, so they are on their way already). Where the server wrote the page's first screen
 * into `#root` (a dataset's landing page: modules/landing), the data the page waits for is asked
 * too: the first render then replaces that screen with the whole page, never with a spinner. A
 * failure is left to the page's own loading.
 */
export async function preloadPublicPage(pathname: string, basename: string): Promise<void> {
  const matches = matchRoutes(routes, pathname, basename) ?? [];
  const firstScreen = document.getElementById('root')?.hasChildNodes() ?? false;
  await Promise.all(
    matches.flatMap((match) => {
      const handle = match.route.handle as RouteHandle | undefined;
      return [handle?.page?.preload().catch(() => undefined), firstScreen ? handle?.data?.(match.params).catch(() => undefined) : undefined];
    }),
  );
}
