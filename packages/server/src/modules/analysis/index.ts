/**
 * The analysis module's one face (issue 20): analysis methods (versions kept), their runs in a DuckDB
 * sandbox of a child process (sandbox.ts, duckdb-runner.mjs) over the imported tables and tabular data files of records
 * the runner may download, and their routes. It owns `analysis_methods`, `analysis_method_versions`
 * and `analysis_runs` (migration 0022, which also writes the data centre's three methods).
 */
export { AnalysisService, type AnalysisOptions } from './analysis.service.js';
export { viewNameOf, type LocalBlobs } from './run-views.js';
export { AnalysisRepo } from './analysis.repo.js';
export { analysisRoutes } from './analysis.routes.js';
export type { SandboxLimits } from './sandbox.js';
