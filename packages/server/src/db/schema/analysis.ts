/** Analysis methods, their versions and runs (migration 0022; modules/analysis writes them). */
export interface AnalysisMethodTable {
  id: string;
  /** Null: one of the data centre's own methods. */
  owner_id: string | null;
  /** 0 or 1. */
  public: number;
  current_version: number;
  /** The method it was forked from. */
  forked_from: string | null;
  /** Runs of it by anyone. */
  uses: number;
  created_at: string;
  updated_at: string;
  /** A deleted method keeps its row and versions for its runs. */
  deleted_at: string | null;
}

/** One version of a method's text, never changed once written. */
export interface AnalysisMethodVersionTable {
  id: string;
  method_id: string;
  version: number;
  name: string;
  name_en: string;
  description: string;
  description_en: string;
  sql: string;
  /** JSON: [{name, type, default}]. */
  parameters: string;
  /** JSON: {type, x, y}, or null. */
  chart: string | null;
  created_at: string;
}

/** A run with its inputs and its result. */
export interface AnalysisRunTable {
  id: string;
  method_id: string;
  version_id: string;
  user_id: string;
  /** JSON: the record ids. */
  datasets: string;
  /** JSON: {name: value}, the defaults filled in. */
  parameters: string;
  /** JSON: [{name, dataset, file}], the views the query saw. */
  views: string;
  /** queued, running, done or failed. */
  status: string;
  /** JSON: [{name, type}]. */
  columns: string | null;
  /** JSON: the rows as arrays. */
  rows: string | null;
  /** JSON: {key, params}, a message of the catalogues. */
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface AnalysisTables {
  analysis_methods: AnalysisMethodTable;
  analysis_method_versions: AnalysisMethodVersionTable;
  analysis_runs: AnalysisRunTable;
}
