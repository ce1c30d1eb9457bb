import { Suspense, type ComponentType, type ReactNode } from 'react';
import { createHashRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { safeReturnAddress, type User } from '@portal/shared';
import { PageSpinner } from '../components/PageSpinner';
import { useCurrentUser } from '../features/account/api';
import { analysisRoutes } from '../features/analysis/routes';
import { tableRoutes } from '../features/tables/routes';
import { lazyPage } from './lazy';
import { PersonalShell } from './PersonalShell';

const NotFoundPage = lazyPage(() => import('../features/home/NotFoundPage'));
const LoginPage = lazyPage(() => import('../features/account/pages/LoginPage'));
const RegisterPage = lazyPage(() => import('../features/account/pages/RegisterPage'));
const ForgotPage = lazyPage(() => import('../features/account/pages/ForgotPage'));
const ResetPage = lazyPage(() => import('../features/account/pages/ResetPage'));
const SendPage = lazyPage(() => import('../features/account/pages/SendPage'));
const DashboardPage = lazyPage(() => import('../features/dashboard/DashboardPage'));
const ProfilePage = lazyPage(() => import('../features/account/pages/ProfilePage'));
const SettingsPage = lazyPage(() => import('../features/account/pages/SettingsPage'));
const MetadataAddPage = lazyPage(() => import('../features/metadata/pages/AddPage'));
const MetadataEditPage = lazyPage(() => import('../features/metadata/pages/EditPage'));
const MetadataListPage = lazyPage(() => import('../features/metadata/pages/ListPage'));
const InvitedReviewPage = lazyPage(() => import('../features/review/pages/InvitedPage'));
const AdvicePage = lazyPage(() => import('../features/review/pages/AdvicePage'));
const ReviewHistoryPage = lazyPage(() => import('../features/review/pages/HistoryPage'));
const ProjectListPage = lazyPage(() => import('../features/review/pages/ProjectListPage'));
const ProjectReviewPage = lazyPage(() => import('../features/review/pages/SubmitPage'));
const PreReviewPage = lazyPage(() => import('../features/review/pages/PreviewPage'));
const DoiRegistrationsPage = lazyPage(() => import('../features/doi/DoiRegistrationsPage'));
const BasketPage = lazyPage(() => import('../features/orders/pages/BasketPage'));
const ApplyFormPage = lazyPage(() => import('../features/orders/pages/ApplyFormPage'));
const OrderListPage = lazyPage(() => import('../features/orders/pages/OrderListPage'));
const OrderDetailPage = lazyPage(() => import('../features/orders/pages/OrderDetailPage'));
const ApplyListPage = lazyPage(() => import('../features/orders/pages/ApplyListPage'));
const ApplicationPage = lazyPage(() => import('../features/orders/pages/ApplicationPage'));
const OfflineApplicationPage = lazyPage(() => import('../features/orders/pages/OfflineApplicationPage'));
const DownloadPage = lazyPage(() => import('../features/orders/pages/DownloadPage'));
const VoucherListPage = lazyPage(() => import('../features/orders/pages/VoucherListPage'));
const VoucherDetailPage = lazyPage(() => import('../features/orders/pages/VoucherDetailPage'));
const StatisticsPage = lazyPage(() => import('../features/statistics/pages/StatisticsPage'));
const ApplyStatisticsPage = lazyPage(() => import('../features/statistics/pages/ApplyStatisticsPage'));

const page = (node: ReactNode) => <Suspense fallback={<PageSpinner />}>{node}</Suspense>;

/** Pages of the shell get the signed-in user; without one the login screen opens first. */
function RequireUser({ render }: { render: (user: User) => ReactNode }) {
  const { data: user, isLoading } = useCurrentUser();
  const { pathname, search } = useLocation();
  if (isLoading) return <PageSpinner />;
  if (!user) {
    // The page asked for is returned to after login (issue 6; the spec named metadata pages only).
    const next = safeReturnAddress(pathname + search);
    return <Navigate to={next ? `/login?next=${encodeURIComponent(next)}` : '/login'} replace />;
  }
  return render(user);
}

const withUser = (Page: ComponentType<{ user: User }>) => <RequireUser render={(user) => <Page user={user} />} />;

/** Personal centre: hash routes (`/personal/#/personal/settings`), as the spec lists them; main.tsx loads this module on `/personal/` only. */
export function createPersonalRouter() {
  const shellPages: RouteObject[] = [
    { index: true, element: withUser(DashboardPage) },
    { path: 'personal/information', element: withUser(ProfilePage) },
    { path: 'personal/settings', element: withUser(SettingsPage) },
    { path: 'metadata/add', element: <MetadataAddPage /> },
    { path: 'metadata/edit/:id', element: <MetadataEditPage /> },
    { path: 'metadata/draft', element: <MetadataListPage kind="draft" /> },
    { path: 'metadata/review', element: <MetadataListPage kind="review" /> },
    { path: 'metadata/published', element: <MetadataListPage kind="published" /> },
    { path: 'metadata/statistics/:id', element: <StatisticsPage /> },
    { path: 'metadata/apply-statistics', element: <ApplyStatisticsPage /> },
    { path: 'invited/review', element: <InvitedReviewPage /> },
    { path: 'review/advice/:id', element: <AdvicePage /> },
    { path: 'review/hitory', element: withUser(ReviewHistoryPage) },
    { path: 'review/projectList', element: <ProjectListPage /> },
    { path: 'review/submit/:id', element: <ProjectReviewPage /> },
    { path: 'review/preview', element: withUser(PreReviewPage) },
    { path: 'review/doi-registrations', element: withUser(DoiRegistrationsPage) },
    { path: 'data/basket', element: <BasketPage /> },
    { path: 'data/applyform', element: withUser(ApplyFormPage) },
    { path: 'data/order', element: <OrderListPage /> },
    { path: 'data/order/:id', element: <OrderDetailPage /> },
    { path: 'data/downloadData', element: <DownloadPage /> },
    { path: 'data/voucher', element: <VoucherListPage /> },
    { path: 'data/voucherDetail/:id', element: <VoucherDetailPage /> },
    { path: 'apply-list', element: <ApplyListPage /> },
    { path: 'application/:id', element: <ApplicationPage /> },
    ...tableRoutes,
    ...analysisRoutes,
    { path: '*', element: <NotFoundPage /> },
  ];
  return createHashRouter([
    { path: '/login', element: page(<LoginPage />) },
    { path: '/register', element: page(<RegisterPage />) },
    { path: '/forgot', element: page(<ForgotPage />) },
    { path: '/reset', element: page(<ResetPage />) },
    { path: '/send', element: page(<SendPage />) },
    // A document to print: outside the shell, for a signed-in user.
    { path: '/offline/Application/:id', element: <RequireUser render={() => page(<OfflineApplicationPage />)} /> },
    { path: '/', element: <RequireUser render={(user) => <PersonalShell user={user} />} />, children: shellPages },
  ]);
}
