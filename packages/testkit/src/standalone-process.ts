import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { waitUntil } from './wait';

const ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(ROOT, 'services/standalone/dist/main.js');

/** `npm start` as its own process: what a crash, a signal or RSS is measured on. */
export interface StandaloneProcess {
  child: ChildProcessWithoutNullStreams;
  httpUrl: string;
  wsUrl: string;
  instanceId: string;
  /** The admin token it was started with. */
  token: string;
  agentMetricsPort?: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** SIGKILL unless it already exited. */
  kill(): void;
}

/**
 * Starts services/standalone/dist/main.js (built by `npm test` beforehand) on a free loopback
 * port with only the PTYWS_* variables given here: the loader rejects unknown ones, and the
 * caller's must not leak in.
 */
export async function startStandaloneProcess(
  env: Record<string, string> = {},
  /** The `node` options before main.js: the services' own (SERVICE_NODE_FLAGS) unless given. */
  nodeFlags: readonly string[] = SERVICE_NODE_FLAGS,
): Promise<StandaloneProcess> {
  const token = `ptyws_${randomBytes(24).toString('base64url')}`;
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PTYWS_')));
  const child = spawn(process.execPath, [...nodeFlags, MAIN], {
    cwd: ROOT,
    env: {
      ...base,
      // As npm start launches it; a test passes GLIBC_TUNABLES: '' to start it without.
      ...SERVICE_ENV,
      PTYWS_HOST: '127.0.0.1',
      PTYWS_PORT: '0',
      PTYWS_ADMIN_TOKEN: token,
      PTYWS_SHELL: '/bin/sh',
      PTYWS_LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  try {
    const m = await waitUntil(
      () => {
        if (child.exitCode !== null) throw new Error(`main exited ${child.exitCode}: ${out}${err}`);
        return /pty-ws listening on (http:\/\/\S+) \(instance '([^']+)'/.exec(out) ?? undefined;
      },
      15_000,
      'main.js to print its URL',
    );
    const agent = /agent metrics server on port (\d+)/.exec(out);
    const httpUrl = m[1]!;
    return {
      child,
      httpUrl,
      wsUrl: httpUrl.replace(/^http/, 'ws'),
      instanceId: m[2]!,
      token,
      ...(agent ? { agentMetricsPort: Number(agent[1]) } : {}),
      stdout: () => out,
      stderr: () => err,
      exited,
      kill,
    };
  } catch (e) {
    kill();
    throw e;
  }
}
