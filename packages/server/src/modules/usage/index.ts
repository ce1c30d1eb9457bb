/** Usage: views and downloads counted as COUNTER counts them, the daily counts and the statistics. */
export { DOWNLOAD_WINDOW_MS, UsageService, VIEW_WINDOW_MS, type Downloader } from './usage.service.js';
export type { DatasetTitles } from './statistics.js';
export { isRobot } from './robots.js';
