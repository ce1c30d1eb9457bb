import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '@portal/shared/i18n/en';
import { publicEn } from '@portal/shared/i18n/public.en';

/**
 * Public pages load only the public part of the catalogue (app/i18n.ts): a key of another
 * namespace would show as the raw key there. This follows the imports of the public router and the
 * entry (static and lazy), leaving out what loads the whole catalogue first (the admin pages with
 * their Ant Design providers) and the personal centre, and lists every catalogue key they name.
 */
const src = path.resolve(import.meta.dirname, '..');
const ROOTS = ['main.tsx', 'app/publicRouter.tsx'];
const WHOLE_CATALOGUE = [/\/app\/AntdProviders$/, /\/features\/admin\//, /\/features\/review\/desk\//, /\/app\/personalRouter$/];

function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return ['.tsx', '.ts', '/index.ts'].map((ending) => base + ending).find((file) => fs.existsSync(file));
}

function publicFiles(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.[^']+)'/g)) {
      const specifier = match[1]!;
      if (specifier.endsWith('.css') || WHOLE_CATALOGUE.some((pattern) => pattern.test(specifier))) continue;
      const target = resolve(file, specifier);
      if (target) visit(target);
    }
  };
  for (const root of ROOTS) visit(path.join(src, root));
  return [...seen];
}

describe("the public pages' catalogue", () => {
  const files = publicFiles();
  const namespaces = Object.keys(en);
  const publicNamespaces = Object.keys(publicEn);

  it('follows the public router to its pages', () => {
    const names = files.map((file) => path.relative(src, file));
    expect(names).toEqual(expect.arrayContaining(['app/PublicLayout.tsx', 'features/home/HomePage.tsx', 'features/home/AboutPage.tsx', 'app/ErrorBoundary.tsx']));
    expect(names.filter((name) => name.startsWith('features/admin/') || name.startsWith('features/review/') || name === 'app/PersonalShell.tsx')).toEqual([]);
  });

  it('names keys of the public namespaces only', () => {
    // 'ns.key' literals and `ns.${...}` templates of any catalogue namespace.
    const keyLiteral = new RegExp(`['"\`]((?:${namespaces.join('|')})\\.[A-Za-z0-9_.]*)`, 'g');
    const outside = files.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(keyLiteral)]
        .map((match) => match[1]!)
        .filter((key) => !publicNamespaces.includes(key.split('.')[0]!))
        .map((key) => `${path.relative(src, file)}: ${key}`),
    );
    expect(outside).toEqual([]);
  });
});
