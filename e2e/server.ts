// Starts the portal for the end-to-end run on an empty data directory.
import fs from 'node:fs';

const dataDir = process.env.DATA_DIR;
if (!dataDir || !dataDir.endsWith('e2e')) throw new Error(`refusing to clear DATA_DIR ${dataDir}`);
fs.rmSync(dataDir, { recursive: true, force: true });
await import('../packages/server/src/main.js');
