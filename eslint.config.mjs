import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'samples/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {},
  },
  {
    // The domain core must run in plain Node (CLI, unit tests): no run-time `vscode` import.
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/core and src/cli must not import vscode at run time; move the code to src/extension or pass what it needs in.', allowTypeImports: true }],
      }],
    },
  },
);
