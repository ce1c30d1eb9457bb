import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { MESSAGE_DURATION_SECONDS } from '@portal/shared';
import { useMediaQuery } from '../components/useMediaQuery';
import { pageLanguage } from './i18n';

dayjs.locale(pageLanguage === 'en' ? 'en' : 'zh-cn');

/**
 * The portal's colours, each text at least WCAG AA's 4.5:1 on white: links take the brand blue
 * (Ant Design's default #1677ff has 4.1:1), descriptions (empty states, form hints, secondary text)
 * 62 % black (6.2:1, not 45 %: 3.4:1), placeholders 55 % black (4.7:1, not 25 %: 1.6:1).
 */
const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#0b4f8a',
    colorLink: '#0b4f8a',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  },
};

/**
 * A visitor who asks for less motion gets none from Ant Design: its own switch, not global.css's
 * near-zero durations, which left dropdowns and select lists drawn outside the window (their popups
 * are placed once their opening motion has run, and a motion of 0.01 ms never reported its end).
 */
const STILL: ThemeConfig = { ...THEME, token: { ...THEME.token, motion: false } };

/**
 * Ant Design for the pages that use it: the personal centre (main.tsx loads this with its router)
 * and the admin pages (the public router loads it lazily around them). Its locale follows the page
 * language; its toasts last 3 seconds (spec section 9).
 */
export function AntdProviders({ children }: { children: ReactNode }) {
  const lessMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  return (
    <ConfigProvider
      locale={pageLanguage === 'en' ? enUS : zhCN}
      theme={lessMotion ? STILL : THEME}
      // Buttons keep their text as written ('注册', not '注 册'), so people and tests find them by name.
      button={{ autoInsertSpace: false }}
    >
      <AntApp message={{ duration: MESSAGE_DURATION_SECONDS, maxCount: 3 }}>{children}</AntApp>
    </ConfigProvider>
  );
}

export default AntdProviders;
