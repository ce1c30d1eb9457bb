import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { hasMessage } from './index.js';

const root = path.resolve(import.meta.dirname, '../../../..');
const namespaces = Object.keys(en);
/** A plain string literal that starts with a catalogue namespace: 'account.captchaError'. */
const keyLiteral = new RegExp(`['"]((?:${namespaces.join('|')})\\.[A-Za-z0-9_.]+)['"]`, 'g');

/** Whether the key names a group of messages in the catalogue (an object), not a message. */
function isGroup(key: string): boolean {
  let at: unknown = en;
  for (const part of key.split('.')) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
  return !!at && typeof at === 'object';
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // db/ and the repositories name tables and columns ('metadata.id'), which share words with the namespaces.
    if (entry.isDirectory()) return ['node_modules', 'dist', 'db'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.(test|repo)\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('catalogue keys used in the code', () => {
  const files = ['packages/web/src', 'packages/server/src', 'packages/shared/src'].flatMap((dir) => sourceFiles(path.join(root, dir)));

  it('finds the sources to check', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('names only keys that exist (in both languages, by the parity test)', () => {
    const missing: string[] = [];
    for (const file of files) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(keyLiteral)) {
        const key = match[1]!;
        // A namespace itself (`'account.'` prefixes built at run time) or a group of keys the code
        // completes at run time (`'orders.mail'`, whose mails are `orders.mail.<kind>.subject`...) is not a key.
        if (!key.endsWith('.') && !hasMessage(key) && !isGroup(key)) missing.push(`${path.relative(root, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
