import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParameterType } from '@portal/shared';

/** What one run may use (ANALYSIS_* settings, README.md "Analysis"). */
export interface SandboxLimits {
  timeoutMs: number;
  memoryMb: number;
  threads: number;
  maxRows: number;
  maxBytes: number;
}

/**
 * A tabular file as a view of the query: its sanitised name, the path the portal resolved, its reader;
 * `columns`, for a CSV the portal wrote itself (an imported table), are read as given (DuckDB's types),
 * not guessed.
 */
export interface SandboxView {
  name: string;
  path: string;
  format: 'csv' | 'parquet';
  columns?: { name: string; type: string }[];
}

export interface SandboxJob {
  sql: string;
  parameters: { name: string; type: ParameterType; value: string | number | boolean }[];
  views: SandboxView[];
}

/** A message of the i18n catalogues with its values: why a run failed, translated when it is read. */
export interface SandboxError {
  key: string;
  params: Record<string, string | number>;
}

export type SandboxResult = { columns: { name: string; type: string }[]; rows: unknown[][] } | { error: SandboxError };

const RUNNER = fileURLToPath(new URL('./duckdb-runner.mjs', import.meta.url));
/**
 * DuckDB's memory_limit covers its buffers, not every allocation (a 300 MB string passes it): where
 * util-linux's prlimit is, the process also gets an RLIMIT_DATA of twice the limit and 256 MB for
 * Node and DuckDB themselves, past which an allocation fails as DuckDB's 'Out of Memory Error'.
 */
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((file) => existsSync(file));
const dataLimitBytes = (limits: SandboxLimits) => (limits.memoryMb * 2 + 256) * 1024 ** 2;
/** The most a process may take to start and make its views before its query: a busy machine is slow to start one. */
export const SANDBOX_STARTUP_MS = 60_000;

/**
 * Runs one query in a child process of its own (duckdb-runner.mjs): a query that outlasts the time
 * limit is killed with its process, as is one whose process grows past its heap; whatever DuckDB
 * does cannot take the portal down with it. `signal` stops it (the portal closing).
 */
export function runInSandbox(job: SandboxJob, limits: SandboxLimits, signal?: AbortSignal): Promise<SandboxResult> {
  return new Promise((resolve) => {
    const heap = `--max-old-space-size=${Math.max(128, limits.memoryMb)}`;
    // The run's own folder, its working directory and DuckDB's temp_directory: whatever DuckDB spills
    // (it does for some allocations even with max_temp_directory_size 0) goes there, and the folder goes
    // with the run, however it ended (DuckDB's default, .tmp in the working directory, was the portal's).
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'portal-analysis-'));
    const child = fork(RUNNER, [], {
      cwd: workDir,
      ...(PRLIMIT ? { execPath: PRLIMIT, execArgv: [`--data=${dataLimitBytes(limits)}`, process.execPath, heap] } : { execArgv: [heap] }),
      // The child inherits nothing of the portal's settings (no secrets, no database address).
      env: { PATH: process.env.PATH ?? '' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let answer: SandboxResult | undefined;
    let stderr = '';
    const stop = () => {
      answer ??= { error: { key: 'analysis.interrupted', params: {} } };
      child.kill('SIGKILL');
    };
    const settle = (result: SandboxResult) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      rmSync(workDir, { recursive: true, force: true });
      answer ??= result;
      resolve(answer);
    };
    const cut = (ms: number) =>
      setTimeout(() => {
        answer ??= { error: { key: 'analysis.timeLimit', params: { seconds: Math.round(limits.timeoutMs / 100) / 10 } } };
        child.kill('SIGKILL');
      }, ms);
    let timer = cut(SANDBOX_STARTUP_MS + limits.timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('message', (message: SandboxResult | { ready: true }) => {
      if ('ready' in message) {
        clearTimeout(timer);
        timer = cut(limits.timeoutMs);
      } else answer ??= message;
    });
    child.on('error', (error) => settle({ error: { key: 'analysis.queryFailed', params: { detail: error.message } } }));
    child.on('exit', (code, signal) =>
      settle({ error: { key: 'analysis.runnerDied', params: { detail: /FATAL ERROR: .*/.exec(stderr)?.[0] ?? (stderr.trim().slice(-300) || `${signal ?? code}`) } } }),
    );
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop);
    child.send({ ...job, limits, tempDirectory: path.join(workDir, 'spill') });
  });
}
