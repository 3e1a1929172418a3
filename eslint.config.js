import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The layers, enforced (docs/architecture.md, "Layers"):
 *   common/ ← db/ ← server services, jobs, lib ← server routes and plugins
 *   common/ ← client lib and components ← client features ← client app
 * A client feature reaches another feature only through that feature's `index.ts`; the router
 * may also load a feature's `*-screen.tsx` lazily.
 * Import cycles, type-only ones included, are found by `npm run lint:cycles`.
 */
const features = readdirSync(new URL('./client/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** Each feature's route screens: the router loads them lazily, one chunk per screen. */
const screens = features.flatMap((feature) =>
  readdirSync(new URL(`./client/src/features/${feature}/components`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('-screen.tsx'))
    .map((entry) => `./${feature}/components/${entry.name}`),
);

const layerZones = [
  { target: './common', from: ['./server', './db', './client', './tests'], message: 'common/ is the contract in code: it imports nothing of ours.' },
  { target: './db', from: ['./server', './client'], message: 'db/ sits below the server: pass what it needs in from the caller.' },
  {
    target: ['./server/src/services', './server/src/jobs', './server/src/lib', './server/src/realtime', './server/src/media'],
    from: ['./server/src/routes', './server/src/plugins'],
    message: 'Services and their helpers never import routes or plugins: move the shared piece down.',
  },
  { target: './server', from: ['./client'], message: 'The server does not import the web client.' },
  { target: './client', from: ['./server', './db'], message: 'The web client reaches the server only over HTTP and sockets; shared rules live in common/.' },
  {
    target: ['./client/src/lib', './client/src/components'],
    from: ['./client/src/features', './client/src/app'],
    message: 'Shared client code must not depend on a feature or the app shell.',
  },
  { target: './client/src/features', from: ['./client/src/app'], message: 'Features do not import the app shell.' },
  ...features.map((feature) => ({
    target: `./client/src/features/${feature}`,
    from: './client/src/features',
    except: [`./${feature}`, ...features.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: 'Another feature is reached only through its public entry, features/<name>/index.ts.',
  })),
  {
    target: './client/src/app',
    from: './client/src/features',
    except: [...features.map((feature) => `./${feature}/index.ts`), ...screens],
    message: 'The app shell reaches a feature through its public entry, features/<name>/index.ts, or lazily loads one of its *-screen.tsx.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules', 'client/dist', 'client/dist-ssr', 'server/dist', 'db/migrations', 'coverage', '.data', '.scratch', 'test-results', 'tests/load/results', '.ci/.node24'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['tsconfig.json', 'client/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
