import type { tablesUiEn } from './tables-ui.en.js';

export const tablesUiZhHans: typeof tablesUiEn = {
  title: '数据表',
};
