// Builds the web app when packages/web/dist is missing or older than its sources, so that
// `npm start` works on a fresh clone and stays quick afterwards.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'packages/web/dist/index.html');
const sources = [
  'packages/web/src',
  'packages/web/public',
  'packages/web/index.html',
  'packages/web/vite.config.ts',
  'packages/web/precompress.ts',
  'packages/web/frame-icons.ts',
  'packages/shared/src',
  'package-lock.json',
];

function newest(target) {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(target).reduce((latest, name) => Math.max(latest, newest(path.join(target, name))), stat.mtimeMs);
}

const built = fs.existsSync(dist) ? fs.statSync(dist).mtimeMs : 0;
const changed = Math.max(...sources.map((source) => newest(path.join(root, source))));
if (changed > built) {
  console.log('Building the web app (packages/web) ...');
  execFileSync('npm', ['run', 'build', '-w', '@portal/web'], { cwd: root, stdio: 'inherit' });
} else {
  console.log('The web app is up to date.');
}
