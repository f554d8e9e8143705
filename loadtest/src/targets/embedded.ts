/**
 * The single-node service as a child process (`node services/standalone/dist/main.js`): its CPU
 * and memory are then its own, not mixed with the benchmark's readers.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { ChildWatch, spawnTracked, stopChild, waitForOutput } from '../children';
import type { Service } from '../service';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

/**
 * Connection and frame rate limits lifted: a storm of one principal is the point of a load run,
 * and a closed-loop echo types faster than the default 2000 frames a second per connection once
 * a round trip is under 0.5 ms (the limiter then refuses a keystroke and the sample times out).
 */
export const UNLIMITED_CONNECTIONS: Readonly<Record<string, string>> = {
  PTYWS_FRAME_RATE_PER_CONN: '1000000',
  PTYWS_CONN_RATE_PER_PRINCIPAL: '100000',
  PTYWS_CONN_BURST_PER_PRINCIPAL: '100000',
  PTYWS_CONN_RATE_PER_INSTANCE: '100000',
  PTYWS_CONN_BURST_PER_INSTANCE: '100000',
  PTYWS_API_RATE_PER_PRINCIPAL: '100000',
  PTYWS_API_BURST_PER_PRINCIPAL: '100000',
  PTYWS_MAX_CONNS_PER_PRINCIPAL: '100000',
  // token-mix presents bad tokens from one address on purpose (--rate above 70: past 10 a second).
  PTYWS_AUTH_FAILURE_RATE: '100000',
  PTYWS_AUTH_FAILURE_BURST: '100000',
};

/** Settings shared by every deployment under test; anything not set here is the default. */
export function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    // As npm start launches a service (packages/config/src/service-env.ts).
    ...SERVICE_ENV,
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? '/tmp',
    PTYWS_HOST: '127.0.0.1',
    PTYWS_PORT: '0',
    PTYWS_INSTANCE_ID: 'bench',
    // The fan-out scenario needs 100 observers on one session (default cap 32).
    PTYWS_MAX_OBSERVERS: '1000',
    // Per-connection info logs would measure pino and the pipe, not the service.
    PTYWS_LOG_LEVEL: 'warn',
    PTYWS_SHELL: '/bin/sh',
    // No gRPC listener: nothing here measures it, and its fixed default port (8082) would clash
    // with any other service on the machine.
    PTYWS_GRPC_PORT: '0',
    // Every client of a run is one principal: the abuse limits would measure themselves.
    ...UNLIMITED_CONNECTIONS,
    ...extra,
  };
}

export function benchToken(): string {
  return `ptyws_bench_${randomBytes(24).toString('hex')}`;
}

/** `http://127.0.0.1:PORT` from the service's start banner. */
export const LISTENING_RE = /listening on (https?:\/\/[^\s]+?)\/?(?:\s|$)/;

/** `extra`: settings beyond serviceEnv's; `nodeFlags`: `node` options beyond the services' own. */
export async function startEmbedded(extra: Record<string, string> = {}, nodeFlags: string[] = []): Promise<Service> {
  const main = join(REPO_ROOT, 'services', 'standalone', 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build`);
  const token = benchToken();
  const child = spawnTracked(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeFlags, main], {
    env: serviceEnv({ ...extra, PTYWS_ADMIN_TOKEN: token }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watch = new ChildWatch(child, 'standalone service');
  try {
    const m = await waitForOutput(child, LISTENING_RE, 15_000, 'standalone service');
    const httpUrl = m[1] as string;
    return {
      httpUrl,
      wsUrl: httpUrl.replace(/^http/, 'ws'),
      instanceId: 'bench',
      token,
      cpuPids: [child.pid as number],
      hostPid: child.pid as number,
      death: () => watch.death(),
      stop: () => stopChild(child),
    };
  } catch (err) {
    await stopChild(child, 1000);
    throw err;
  }
}
