/** Runs the built CLI as a user would: `node packages/ptyctl/dist/main.js …` in a child process. */
import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../..');
export const CLI = join(ROOT, 'packages/ptyctl/dist/main.js');

/**
 * Brings dist/ up to date with src/ (incremental, about a second when nothing changed). The lock
 * keeps two jest workers from writing dist/ at once.
 */
export function ensureBuilt(): void {
  const tsc = join(ROOT, 'node_modules/.bin/tsc');
  const res = spawnSync('flock', ['/tmp/ptyctl-test-build.lock', tsc, '-b', 'packages/ptyctl'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (res.status !== 0) throw new Error(`tsc -b packages/ptyctl failed:\n${res.stdout}${res.stderr}`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a test passes, on top of a clean one: the caller's PTYWS_* must not leak in. */
export function cleanEnv(env: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('PTYWS_')) out[k] = v;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

export function ptyctl(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 15_000,
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ptyctl ${args.join(' ')} did not exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** A running CLI whose output the test watches while it runs. */
export interface RunningCli {
  readonly stdout: string;
  readonly stderr: string;
  exited: Promise<number | null>;
  kill(): void;
}

export function startPtyctl(args: string[], env: Record<string, string | undefined> = {}): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString('utf8')));
  const exited = new Promise<number | null>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolvePromise(code));
  });
  return {
    get stdout() {
      return out.stdout;
    },
    get stderr() {
      return out.stderr;
    },
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}
