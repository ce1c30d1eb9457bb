import type { analysisUiEn } from './analysis-ui.en.js';

export const analysisUiZhHans: typeof analysisUiEn = {
  title: '分析方法',
};
