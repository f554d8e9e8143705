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
    // The client SDK takes all time from its injected Clock (packages/client/src/clock.ts, the one
    // place that reads the runtime's clocks), so its reconnect supervisor and timeouts run on a
    // manual clock in tests instead of sleeping.
    files: ['packages/client/src/**/*.ts'],
    ignores: ['packages/client/src/clock.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'].map((name) => ({
          name,
          message: 'use the injected Clock (clock.ts)',
        })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'use the injected Clock (clock.ts)' },
        { object: 'performance', property: 'now', message: 'use the injected Clock (clock.ts)' },
        ...['setTimeout', 'setInterval'].map((property) => ({
          object: 'globalThis',
          property,
          message: 'use the injected Clock (clock.ts)',
        })),
      ],
    },
  },
  {
    // The pty spawner's timing (the relay's stream window, quiet and hold bars, the orphan poll)
    // goes through the Clock port, so tests can walk a ManualClock instead of sleeping.
    files: ['services/pty-agent/src/hosts/spawner/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'].map((name) => ({
          name,
          message: 'use the Clock port (@pty-ws/ports) for time in the pty spawner',
        })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'use clock.now() (the Clock port) in the pty spawner' },
        {
          object: 'performance',
          property: 'now',
          message: 'use clock.monotonic() (the Clock port) in the pty spawner',
        },
      ],
    },
  },
  {
    // The edge's WebSocket path and its output flow take time from the Clock port
    // (packages/ports/src/clock.ts), so their tests walk a ManualClock instead of sleeping;
    // services/edge/src/next-turn.ts orders work against I/O (a turn, not a time).
    files: ['services/edge/src/ws/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate'].map(
          (name) => ({ name, message: 'use the Clock port (clock.setTimeout/setInterval) or next-turn.ts' }),
        ),
      ],
      'no-restricted-properties': [
        'error',
        ...[
          ['performance', 'now'],
          ['Date', 'now'],
          ['globalThis', 'setTimeout'],
          ['globalThis', 'setInterval'],
          ['globalThis', 'setImmediate'],
        ].map(([object, property]) => ({
          object,
          property,
          message: 'use the Clock port (clock.monotonic(), clock.now(), clock.setTimeout)',
        })),
      ],
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
