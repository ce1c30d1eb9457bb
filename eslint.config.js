// Lint rules (issue 18): typescript-eslint's recommended rules, React's hook rules for the web app, no
// import cycles, and the module boundaries as rules:
//  - a server module (packages/server/src/modules/<name>/) is imported from outside its folder only through
//    its face, modules/<name>/index.ts: no other module, no plugin and not app.ts reach its repo, routes or
//    internals (tests, which check internals, may);
//  - packages/shared imports nothing from the server or the web app; the web app imports nothing from the
//    server.
// `npm run lint` runs this and Prettier's check.
import { readdirSync } from 'node:fs';
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const serverSrc = 'packages/server/src';
const modules = readdirSync(`${serverSrc}/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** One zone per module: every server file outside modules/<name>/ may import only its index.ts. */
const moduleFaceZones = modules.map((name) => ({
  target: [`${serverSrc}/*.ts`, `${serverSrc}/!(modules)/**`, `${serverSrc}/modules/!(${name})/**`],
  from: `${serverSrc}/modules/${name}`,
  except: ['./index.ts'],
  message: `Another module, a plugin or app.ts imports module "${name}" only through its face: modules/${name}/index.ts.`,
}));

export default defineConfig(
  {
    ignores: ['**/node_modules/', '**/dist/', 'var/', 'test-results*/', 'playwright-report/', 'bench/results/', 'packages/server/test/xsd/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    settings: {
      // Which files no-cycle reads and with what parser (import-x's TypeScript settings, without its resolver).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/server/tsconfig.json', 'packages/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A leading underscore names what is left out on purpose (`const { secret: _secret, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Control characters are matched on purpose: text that PostgreSQL, XML or a zip name refuses is cleaned.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read replies whose shape is the point of the assertion.
    files: ['packages/server/test/**', '**/*.test.ts', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  {
    files: [`${serverSrc}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: moduleFaceZones }],
    },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: 'packages/shared',
              from: ['packages/server', 'packages/web'],
              message: 'packages/shared is imported by both sides and imports neither.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      // React Compiler's checks, for code written for it; the app has no compiler and uses the latest-value ref
      // and the state-follows-its-prop effect on purpose. Shown, not failing.
      'react-hooks/refs': 'warn',
      'react-hooks/set-state-in-effect': 'warn',
      'react-hooks/immutability': 'warn',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: 'packages/web',
              from: 'packages/server',
              message: 'The web app talks to the server over HTTP through the contracts in packages/shared.',
            },
          ],
        },
      ],
    },
  },
);
