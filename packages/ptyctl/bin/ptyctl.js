#!/usr/bin/env node
// The `ptyctl` command that npm links at install (`npx ptyctl` after `npm ci`). It is committed
// plain JavaScript because dist/ is not: a fresh clone has no dist/main.js yet, so this builds the
// CLI (tsc -b of this package and the two it imports, a few seconds, once) and then runs it.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const pkg = path.resolve(__dirname, '..');
const main = path.join(pkg, 'dist', 'main.js');

if (!existsSync(main)) {
  process.stderr.write(
    `ptyctl: not built yet (${path.relative(process.cwd(), main) || main} is missing); building it once with tsc -b…\n`,
  );
  let tsc;
  try {
    tsc = require.resolve('typescript/bin/tsc', { paths: [pkg] });
  } catch {
    process.stderr.write(
      'ptyctl: cannot build: typescript is not installed here (run `npm ci` at the repository root)\n',
    );
    process.exit(1);
  }
  const built = spawnSync(process.execPath, [tsc, '-b', path.join(pkg, 'tsconfig.json')], { stdio: ['ignore', 2, 2] });
  if (built.status !== 0 || !existsSync(main)) {
    process.stderr.write(
      `ptyctl: the build failed (tsc exit ${built.status ?? built.signal}); \`npm run build\` at the repository root shows why\n`,
    );
    process.exit(1);
  }
}

require(main);
