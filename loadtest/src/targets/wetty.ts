/**
 * WeTTY (the npm package `wetty`, a dev dependency), the web terminal people pick today: started
 * by the bench on a free loopback port, one server per program (it runs one command for every
 * connection), driven over its socket.io protocol by the same measuring code (ByteChannel) as the
 * other targets. As root on localhost it spawns the command directly (no login, no ssh).
 *
 * Its protocol: the client emits `input` (text) and `resize`, the server emits `data` (text) and
 * `login` once the PTY runs; the client acknowledges every 256 KiB with `commit`, or the server
 * pauses the PTY past 2 MiB in flight (its flow control).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@pty-ws/testkit';
import { io, type Socket } from 'socket.io-client';
import { echoUnderLoad, type ByteChannel, type EchoRun, type EchoSession } from '../channel';
import { spawnTracked, stopChild } from '../children';
import { timeChannelReader } from '../flood';
import { medianStream } from '../metrics/stream-rounds';
import { rawStreamBaseline } from './raw';
import { echoRun, type Profile } from '../options';
import { Budget, phase, type Cleanup } from '../phase';
import { COLS, ECHO_ARGV, ROWS, floodArgv } from '../programs';
import { REPO_ROOT } from './embedded';
import type { EchoMetric, FanoutMetric, TargetResult } from '../types';

const ACK_BYTES = 262_144;

interface Wetty {
  pid: number;
  port: number;
}

/** Starts wetty running `argv` (through a script file: wetty hands its command to `env -S`). */
async function startWetty(argv: string[], c: Cleanup): Promise<Wetty> {
  const dir = mkdtempSync(join(tmpdir(), 'ptyws-bench-wetty-'));
  c.add(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'run.sh');
  const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  writeFileSync(script, `exec ${quoted}\n`);
  const port = await freePort();
  const bin = join(REPO_ROOT, 'node_modules', 'wetty', 'build', 'main.js');
  const child = spawnTracked(
    process.execPath,
    [bin, '--host', '127.0.0.1', '--port', String(port), '--base', '/wetty/', '--command', `/bin/sh ${script}`],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  c.add(() => stopChild(child, 1000));
  // Listening once a TCP connect succeeds.
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`wetty exited (${child.exitCode})`);
    const ok = await new Promise<boolean>((resolve) => {
      const probe = tcpConnect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (ok) break;
    if (i > 150) throw new Error('wetty did not start listening within 15 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { pid: child.pid as number, port };
}

/**
 * One wetty terminal (a socket is a session: wetty spawns its PTY and kills it on disconnect);
 * resolves once the server said `login` (the PTY runs).
 */
function connect(w: Wetty, c: Cleanup): Promise<EchoSession> {
  return new Promise((resolve, reject) => {
    const socket: Socket = io(`http://127.0.0.1:${w.port}`, {
      path: '/wetty/socket.io',
      transports: ['websocket'],
      reconnection: false,
    });
    c.add(() => socket.disconnect());
    let listener: (chunk: Buffer) => void = () => {};
    let unacked = 0;
    socket.on('data', (text: string) => {
      unacked += text.length;
      if (unacked >= ACK_BYTES) {
        unacked -= ACK_BYTES;
        socket.emit('commit', ACK_BYTES);
      }
      listener(Buffer.from(text, 'utf8'));
    });
    socket.once('login', () => {
      socket.emit('resize', { cols: COLS, rows: ROWS });
      const channel: ByteChannel = {
        write: (d) => socket.emit('input', d.toString('latin1')),
        setListener: (l) => (listener = l),
      };
      resolve({ channel, close: () => socket.disconnect() });
    });
    socket.once('connect_error', (err) => reject(err));
  });
}

async function wettyEcho(run: EchoRun, c: Cleanup): Promise<EchoMetric> {
  const w = await startWetty(ECHO_ARGV, c);
  return echoUnderLoad(() => connect(w, c), 1, run, 0, [w.pid], c);
}

async function wettyFlood(bytes: number, timeoutMs: number, c: Cleanup): Promise<FanoutMetric> {
  const w = await startWetty(floodArgv(bytes), c);
  return timeChannelReader((await connect(w, c)).channel, w.pid, timeoutMs);
}

/** Echo and one-reader throughput: wetty cannot share one terminal between clients. */
export async function benchWetty(p: Profile, result: TargetResult, budget: Budget): Promise<void> {
  result.process = { host_pid: process.pid };
  await phase(result, 'echo_1', budget, async (c) => {
    result.metrics.echo_1 = await wettyEcho(echoRun(p), c);
  });
  await phase(result, 'throughput_1', budget, async (c) => {
    result.metrics.throughput['1'] = await medianStream(p, () => wettyFlood(p.streamBytes, 60_000, c), {
      baseline: rawStreamBaseline(p),
      archives: false,
    });
  });
}
