import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestPortal, type TestPortal } from './helpers.js';

/** Helpers of the exports' API tests (their records are written by the factories' buildExportRecord). */

/**
 * A test portal with a built web app (an index.html stand-in in a folder of its own), so that a
 * landing page request the exports do not answer reaches the page handling; `close` ends the portal
 * and removes the folder.
 */
export async function createLandingTestPortal(): Promise<{ portal: TestPortal; close: () => Promise<void> }> {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="zh-CN"><head><meta name="portal-site-variant" content="portal" /><title>x</title></head><body><div id="root"></div></body></html>',
  );
  const portal = await createTestPortal({ env: { WEB_DIST: webDist } });
  return {
    portal,
    close: async () => {
      await portal.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    },
  };
}

/** The JSON-LD contexts the tests serve from files (no network): remote address -> file. */
const LOCAL_CONTEXTS: Record<string, string> = {
  'https://schema.org/': 'schema-org-context.jsonld',
  'https://schema.org': 'schema-org-context.jsonld',
};

/** A jsonld document loader that reads contexts from packages/server/test/jsonld/ and refuses any other address. */
export async function localDocumentLoader(url: string) {
  const file = LOCAL_CONTEXTS[url];
  if (!file) throw new Error(`no network in the tests: ${url} is not a local context`);
  const document = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'jsonld', file), 'utf8'));
  return { contextUrl: undefined, documentUrl: url, document };
}

/**
 * xmllint's verdict on a document, offline (--nonet): '' when it is well-formed (and valid against
 * `schema` when one is given), its complaint otherwise.
 */
export function xmllintErrors(xml: string, schema?: string): string {
  try {
    execFileSync('xmllint', ['--noout', '--nonet', ...(schema ? ['--schema', schema] : []), '-'], { input: xml, stdio: ['pipe', 'pipe', 'pipe'] });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}
