// ESLint flat config: typescript-eslint's recommended rules over every workspace's sources.
import tseslint from 'typescript-eslint';

/** no-restricted-imports patterns that keep imports on package entries; `relative` adds paths for one folder depth. */
function packageBoundaries(relative) {
  return [
    {
      group: ['@pty-ws/*/dist', '@pty-ws/*/dist/**', '@pty-ws/*/src', '@pty-ws/*/src/**'],
      message: 'import the package entry (its exports map)',
    },
    {
      group: ['**/packages/*/src', '**/packages/*/src/**', '**/services/*/src', '**/services/*/src/**', ...relative],
      message: "import @pty-ws/<package> (or its ./internal entry), not another package's sources",
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'artifacts/**',
      'bench-results/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
      // Generated from proto/ by packages/a2a-proto/scripts/generate.cjs (reproducible, not hand-edited).
      'packages/a2a-proto/src/generated/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-function': 'off',
      // A package is used through its `exports` map (`@pty-ws/x`, or `@pty-ws/x/internal` in
      // tests), never through another package's src/ or dist/ files.
      'no-restricted-imports': ['error', { patterns: packageBoundaries([]) }],
    },
  },
  {
    // From packages/<p>/test, ../../<q>/src is another package's sources.
    files: ['packages/*/test/**', 'services/*/test/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: packageBoundaries(['../../*/src', '../../*/src/**']) }] },
  },
  {
    files: ['**/test/**', 'tests/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      'prefer-const': 'off',
    },
  },
);
