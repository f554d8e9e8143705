/**
 * Child process for the baseline's memory figure: a bare Node process that holds N idle
 * node-pty `/bin/cat` terminals, so its RSS growth is measured the same way as the service's
 * (VmRSS of the process hosting the PTYs), without the benchmark's own heap in the way.
 * Prints one JSON line {before, after} (KiB), then kills its terminals and exits.
 */
import { rssKb } from './proc';
import { IDLE_ARGV } from './programs';
import { spawnLocal, type LocalPty } from './targets/local-pty';

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? '100');
  const all: LocalPty[] = [spawnLocal(IDLE_ARGV)];
  await new Promise((r) => setTimeout(r, 300));
  const before = rssKb(process.pid);
  for (let i = 0; i < n; i++) all.push(spawnLocal(IDLE_ARGV));
  await new Promise((r) => setTimeout(r, 1000));
  const after = rssKb(process.pid);
  process.stdout.write(JSON.stringify({ before, after }) + '\n');
  for (const p of all) p.kill();
  setTimeout(() => process.exit(0), 100);
}

void main();
