// ESLint flat config: typescript-eslint's recommended rules over every workspace's sources.
import tseslint from 'typescript-eslint';

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
    },
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
