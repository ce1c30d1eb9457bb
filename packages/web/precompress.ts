import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** The server's list too (packages/server/src/plugins/static-files.ts): images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|map|txt|xml|svg|ico|wasm)$/;

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * After the build, writes `<file>.br` (brotli at its best quality) and `<file>.gz` (gzip -9) beside
 * every compressible file where they are smaller, once, so that the server only picks one by
 * Accept-Encoding. index.html is left out: the server fills it in for each page and compresses that.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesBelow(outDir)).filter((file) => COMPRESSIBLE.test(file) && path.relative(outDir, file) !== 'index.html');
      // The zlib calls run in libuv's thread pool: all at once use every core.
      await Promise.all(
        files.map(async (file) => {
          const bytes = await fs.readFile(file);
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
            gzipped(bytes, { level: 9 }),
          ]);
          if (br.length < bytes.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < bytes.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}
