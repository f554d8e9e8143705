// Compiles native/*.c to dist/native/ (part of `npm run build`): stream-relay.c and close-fds.c,
// programs, and no-dump.c, a library the agent loads. Without a C compiler the build goes on: the
// agent then reads every pty on its event loop, stays dumpable and its programs inherit its
// descriptors, and says so.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cc = process.env.CC || 'cc';
const targets = [
  {
    source: 'stream-relay.c',
    target: 'stream-relay',
    flags: [],
    without: "streaming sessions will be read on the agent's event loop",
  },
  {
    source: 'close-fds.c',
    target: 'close-fds',
    flags: [],
    without: "sessions' programs inherit the agent's descriptors",
  },
  {
    source: 'no-dump.c',
    target: 'no-dump.node',
    flags: ['-shared', '-fPIC'],
    without: 'the agent and its spawner stay dumpable',
  },
];

for (const { source, target, flags, without } of targets) {
  const src = join(root, 'native', source);
  const out = join(root, 'dist', 'native', target);
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(src).mtimeMs) continue;
  mkdirSync(dirname(out), { recursive: true });
  const built = spawnSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', ...flags, '-o', out, src], { stdio: 'inherit' });
  if (built.error || built.status !== 0) {
    const why = built.error ? `${cc}: ${built.error.message}` : `${cc} exited with ${built.status}`;
    console.warn(`${target} not built (${why}): ${without}`);
  }
}
