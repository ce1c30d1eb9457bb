import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** What every recorded run notes first: when, which commit, the LABEL note, and the machine. */
export function runConditions(loadAverageAtStart: number) {
  return {
    date: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim(),
    label: process.env.LABEL ?? '',
    node: process.version,
    cpus: os.cpus().length,
    loadAverageAtStart: Number(loadAverageAtStart.toFixed(2)),
  };
}

/** Appends one run to `bench/results/<name>.json` (a list, oldest first); returns the file's path from the root. */
export function appendResult(name: string, entry: object): string {
  const file = path.join(root, 'bench/results', `${name}.json`);
  const history = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]) : [];
  history.push(entry);
  fs.writeFileSync(file, `${JSON.stringify(history, null, 2)}\n`);
  return path.relative(root, file);
}
