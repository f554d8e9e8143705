/**
 * The raw uWS publish floor (uws-floor-child.ts): the same flood bytes to the same readers, with
 * nothing between the bytes and the sockets but uWS. The service's fan-out is measured against it.
 */
import { join } from 'node:path';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@pty-ws/config';
import WebSocket from 'ws';
import { spawnTracked, stopChild, waitForOutput } from '../children';
import { FloodReader } from '../flood';
import { medianFanout, medianStream, ownCleanup, type Baseline } from '../metrics/stream-rounds';
import { echoRun, type Profile } from '../options';
import { Budget, phase, type Cleanup } from '../phase';
import { CpuMeter, MachineMeter } from '../proc';
import { ReaderLoopMeter } from '../reader-loop';
import { echoUnderLoad, type EchoRun } from '../channel';
import { mean, round } from '../stats';
import { openRawSocket, rawSocketSession } from '../raw-socket';
import type { EchoMetric, FanoutMetric, TargetResult } from '../types';

/** The floor's server process; its URL once it listens. */
export async function startFloor(bytes: number, c: Cleanup): Promise<{ url: string; pid: number }> {
  const child = spawnTracked(
    process.execPath,
    [...SERVICE_NODE_FLAGS, join(__dirname, '..', 'uws-floor-child.js'), String(bytes)],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...SERVICE_ENV } },
  );
  c.add(() => stopChild(child, 1000));
  const m = await waitForOutput(child, /port (\d+)/, 15_000, 'uws floor');
  return { url: `ws://127.0.0.1:${m[1] as string}/`, pid: child.pid as number };
}

/** A keystroke's WebSocket round trip alone: the server sends each binary message back. */
async function floorEcho(run: EchoRun, c: Cleanup): Promise<EchoMetric> {
  const { url, pid } = await startFloor(1, c);
  return echoUnderLoad(() => rawSocketSession(url, c), 1, run, 0, [pid], c);
}

async function floorFanout(observers: number, bytes: number, timeoutMs: number, c: Cleanup): Promise<FanoutMetric> {
  const { url, pid } = await startFloor(bytes, c);
  const sockets: WebSocket[] = [];
  for (let i = 0; i < observers; i++) sockets.push(await openRawSocket(url));
  c.add(() => sockets.forEach((s) => s.terminate()));
  const readers = sockets.map((s) => {
    const r = new FloodReader();
    s.on('message', (d: Buffer) => r.feed(d));
    return r;
  });
  const server = new CpuMeter([pid]);
  const client = new CpuMeter([process.pid]);
  const machine = new MachineMeter();
  const loop = new ReaderLoopMeter();
  const t0 = performance.now();
  sockets[0]?.send('go');
  const timer = setTimeout(() => readers.forEach((r) => r.abort()), timeoutMs);
  await Promise.all(readers.map((r) => r.done));
  clearTimeout(timer);
  const ends = readers.map((r) => r.endAt ?? performance.now());
  const rates = readers.map((r, i) => r.bytes / 1e6 / (((ends[i] as number) - t0) / 1000));
  const duration = Math.max(...ends) - t0;
  const total = readers.reduce((s, r) => s + r.bytes, 0);
  const incomplete = readers.filter((r) => r.endAt === undefined).length;
  if (incomplete === observers) throw new Error(`no reader saw the end within ${timeoutMs} ms`);
  return {
    observers,
    bytes_per_observer: Math.round(mean(readers.map((r) => r.bytes))),
    per_observer_mb_s: round(mean(rates), 2),
    min_observer_mb_s: round(Math.min(...rates), 2),
    total_mb_s: round(total / 1e6 / (duration / 1000), 2),
    duration_ms: round(duration, 1),
    server_cpu_pct: round(server.percent(), 1),
    client_cpu_pct: round(client.percent(), 1),
    client_loop_pct: round(loop.busyPercent(), 1),
    client_gc_ms: round(loop.gcMs(), 1),
    machine_cpu_pct: round(machine.percent(), 1),
    lagged_observers: 0,
    incomplete_observers: incomplete,
  };
}

/** The floor's big fan-out round, as the baseline run just before each of a service's. */
export function floorFanoutBaseline(p: Profile): Baseline {
  return {
    name: 'uws-floor',
    round: ownCleanup((c) => floorFanout(p.bigFanout.observers, p.bigFanout.floodBytes, 120_000, c)),
  };
}

export async function benchUwsFloor(p: Profile, result: TargetResult, budget: Budget): Promise<void> {
  result.process = { host_pid: process.pid };
  await phase(result, 'echo_1', budget, async (c) => {
    result.metrics.echo_1 = await floorEcho(echoRun(p), c);
  });
  for (const n of p.observers) {
    await phase(result, `throughput_${n}`, budget, async (c) => {
      result.metrics.throughput[String(n)] =
        n === 1
          ? await medianStream(p, () => floorFanout(1, p.streamBytes, 60_000, c), { archives: false })
          : await floorFanout(n, p.floodBytes, 60_000, c);
    });
  }
  await phase(result, 'fanout_big', budget, async () => {
    result.metrics.fanout_big = await medianFanout(p, (c) =>
      floorFanout(p.bigFanout.observers, p.bigFanout.floodBytes, 120_000, c),
    );
  });
}
