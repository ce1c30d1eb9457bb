export interface RecordViewTable {
  metadata_id: string;
  visitor: string;
  viewed_at: string;
}

export interface UsageDayTable {
  metadata_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  kind: 'view' | 'download' | 'order';
  /** ISO 3166-1 alpha-2, or '' when unknown. */
  country: string;
  count: number;
}

export interface RecentDownloadTable {
  file_id: string;
  visitor: string;
  downloaded_at: string;
}

/** The usage module's tables: views and downloads as counted, and their days (modules/usage: usage.repo.ts writes them; migrations 0004, 0006). */
export interface UsageTables {
  record_views: RecordViewTable;
  usage_days: UsageDayTable;
  recent_downloads: RecentDownloadTable;
}
