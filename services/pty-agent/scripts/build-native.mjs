// Compiles native/stream-relay.c to dist/native/stream-relay (part of `npm run build`). Without a C
// compiler the build goes on: the agent then reads every pty on its event loop, and says so.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'native', 'stream-relay.c');
const target = join(root, 'dist', 'native', 'stream-relay');

if (existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs) process.exit(0);
mkdirSync(dirname(target), { recursive: true });
const cc = process.env.CC || 'cc';
const built = spawnSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', '-o', target, source], { stdio: 'inherit' });
if (built.error || built.status !== 0) {
  const why = built.error ? `${cc}: ${built.error.message}` : `${cc} exited with ${built.status}`;
  console.warn(`stream-relay not built (${why}): streaming sessions will be read on the agent's event loop`);
}
