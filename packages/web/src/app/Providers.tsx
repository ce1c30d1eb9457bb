import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toasts } from '../components/toast';
import { ErrorBoundary } from './ErrorBoundary';
import { FlashMessage } from './flash';

/** The app's one query cache (exported for the data a page asks for before its first render: publicRouter.tsx). */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

/**
 * What every page has: queries, the error boundary, and the toasts that carry messages across a
 * reload. No Ant Design: public pages do not load it; the personal centre and the admin pages
 * add it inside (AntdProviders).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary>{children}</ErrorBoundary>
      <Toasts />
      <FlashMessage />
    </QueryClientProvider>
  );
}
