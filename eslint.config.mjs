import tseslint from 'typescript-eslint';

// The pure core modules (no Node, no vscode, no tokenizer) that the webview bundles may import,
// by name, besides src/shared/**. They may import only each other.
const WEBVIEW_CORE_MODULES = ['audit/newest', 'audit/verdicts', 'collections/table', 'model/rootCauses', 'stats/toolKinds'];

const alternatives = (names) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const coreModules = alternatives(WEBVIEW_CORE_MODULES);
const coreDirs = alternatives([...new Set(WEBVIEW_CORE_MODULES.map((m) => m.split('/')[0]))]);
const coreBasenames = alternatives(WEBVIEW_CORE_MODULES.map((m) => m.split('/')[1]));
const allowedList = WEBVIEW_CORE_MODULES.map((m) => `src/core/${m}`).join(', ');

const noVscode = {
  name: 'vscode',
  message: 'src/core, src/cli, src/shared and webview/ must not import vscode at run time; move the code to src/extension or pass what it needs in.',
  allowTypeImports: true,
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'samples/**'] },
  // typescript-eslint's recommended rules everywhere; `_name` marks a binding kept on purpose
  // (a field dropped by destructuring, an unused parameter of an interface's signature).
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts', '**/*.mts'] })),
  {
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Test doubles read and write arbitrary wire JSON (the mock model server, SDK responses).
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The domain core must run in plain Node (CLI, unit tests): no run-time `vscode` import.
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [noVscode] }],
    },
  },
  {
    // The core modules the webview bundles stay pure: they import only each other.
    files: WEBVIEW_CORE_MODULES.map((m) => `src/core/${m}.ts`),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            {
              regex: `^(?!\\.\\.?/((${coreDirs})/)?(${coreBasenames})(\\.js)?$)`,
              // Types are erased from the bundle (collections/table takes CollectionRow from rows.ts).
              allowTypeImports: true,
              message: `a core module the webview bundles (${allowedList}) imports only the others of that list (eslint.config.mjs, WEBVIEW_CORE_MODULES).`,
            },
          ],
        },
      ],
    },
  },
  {
    // Host <-> webview protocols bundle into both sides: at run time they import only the pure
    // core modules; types may come from anywhere in src/core.
    files: ['src/shared/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            {
              regex: `^\\.\\./core/(?!(${coreModules})(\\.js)?$)`,
              allowTypeImports: true,
              message: `src/shared imports at run time only ${allowedList} from src/core (eslint.config.mjs, WEBVIEW_CORE_MODULES); use import type for types.`,
            },
            { regex: '^\\.\\./(extension|cli)/', message: 'src/shared must not import src/extension or src/cli.' },
          ],
        },
      ],
    },
  },
  {
    // The webview runs in a browser: from src/ it imports only src/shared/** and the pure core
    // modules named above (one rule, one place: the domain rules live there, not here).
    files: ['webview/**/*.ts', 'webview/**/*.mts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'webview/ runs in the browser and must not import vscode; talk to the host through src/shared protocols.' }],
          patterns: [
            {
              regex: `^(\\.\\./)+src/(?!shared/|core/(${coreModules})(\\.js)?$)`,
              message: `webview/ imports from src/ only src/shared/** and ${allowedList} (eslint.config.mjs, WEBVIEW_CORE_MODULES).`,
            },
            { regex: '^node:', message: 'webview/ runs in the browser: no Node built-ins.' },
          ],
        },
      ],
    },
  },
);
