import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { MESSAGE_DURATION_SECONDS } from '@portal/shared';
import { ErrorBoundary } from './ErrorBoundary';
import { FlashMessage } from './flash';
import { pageLanguage } from './i18n';

dayjs.locale(pageLanguage === 'en' ? 'en' : 'zh-cn');

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

/** Ant Design's locale follows the page language; toasts last 3 seconds (spec section 9). */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={pageLanguage === 'en' ? enUS : zhCN} theme={{ token: { colorPrimary: '#0b4f8a' } }}
      // Buttons keep their text as written ('注册', not '注 册'), so people and tests find them by name.
      button={{ autoInsertSpace: false }}
    >
      <AntApp message={{ duration: MESSAGE_DURATION_SECONDS, maxCount: 3 }}>
        <FlashMessage />
        <QueryClientProvider client={queryClient}>
          <ErrorBoundary>{children}</ErrorBoundary>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
