/**
 * The baseline: node-pty driven directly by this process, no service in between. Same programs,
 * same terminal size and the same measuring code (ByteChannel) as the service targets, so the
 * ratios isolate what the service adds.
 */
import { join } from 'node:path';
import { echoUnderLoad, type EchoRun, type EchoSession } from '../channel';
import { spawnTracked, waitForOutput } from '../children';
import { FloodReader, timeOneReader } from '../flood';
import { medianStream, ownCleanup, type Baseline } from '../metrics/stream-rounds';
import { echoRun, type Profile } from '../options';
import { Budget, phase, type Cleanup } from '../phase';
import { CpuMeter } from '../proc';
import { ECHO_ARGV, floodArgv } from '../programs';
import { round } from '../stats';
import type { EchoMetric, FanoutMetric, MemoryMetric, TargetResult } from '../types';
import { spawnLocal } from './local-pty';

async function rawEcho(sessions: number, run: EchoRun, rateHz: number, cleanup: Cleanup): Promise<EchoMetric> {
  const open = (): Promise<EchoSession> => {
    const p = spawnLocal(ECHO_ARGV);
    cleanup.add(() => p.kill());
    return Promise.resolve({ channel: p, close: () => p.kill() });
  };
  return echoUnderLoad(open, sessions, run, rateHz, [process.pid], cleanup);
}

async function rawFlood(bytes: number, timeoutMs: number, cleanup: Cleanup): Promise<FanoutMetric> {
  const p = spawnLocal(floodArgv(bytes));
  cleanup.add(() => p.kill());
  const reader = new FloodReader();
  p.setListener((chunk) => reader.feed(chunk));
  // The shell needs a moment to reach `read`; input sent earlier waits in the tty anyway.
  const cpu = new CpuMeter([process.pid]);
  // One process hosts the PTY and reads it: its CPU is both figures.
  let measured: number | undefined;
  const pct = () => (measured ??= cpu.percent());
  return timeOneReader(reader, () => p.write(Buffer.from('\r')), timeoutMs, { server: pct, client: pct });
}

async function rawIdleMemory(sessions: number): Promise<MemoryMetric> {
  const child = spawnTracked(process.execPath, [join(__dirname, '..', 'raw-idle-child.js'), String(sessions)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const m = await waitForOutput(child, /(\{.*\})\n/, 30_000, 'raw memory child');
  const { before, after } = JSON.parse(m[1] as string) as { before: number; after: number };
  return {
    sessions,
    rss_before_kb: before,
    rss_after_kb: after,
    per_session_kb: round((after - before) / sessions, 1),
  };
}

/** Raw node-pty's one-stream round, as the baseline run just before each of another target's. */
export function rawStreamBaseline(p: Profile): Baseline {
  return { name: 'raw-node-pty', round: ownCleanup((c) => rawFlood(p.streamBytes, 60_000, c)) };
}

export async function benchRaw(p: Profile, result: TargetResult, budget: Budget): Promise<void> {
  result.process = { host_pid: process.pid };
  await phase(result, 'idle_memory', budget, async () => {
    result.metrics.idle_memory = await rawIdleMemory(p.idleSessions);
  });
  await phase(result, 'echo_1', budget, async (c) => {
    result.metrics.echo_1 = await rawEcho(1, echoRun(p), p.busyRateHz, c);
  });
  await phase(result, 'echo_loaded', budget, async (c) => {
    result.metrics.echo_loaded = await rawEcho(p.loadedSessions, echoRun(p), p.busyRateHz, c);
  });
  // Fan-out and attach have no raw equivalent: a PTY has one reader and no history.
  await phase(result, 'throughput_1', budget, async (c) => {
    result.metrics.throughput['1'] = await medianStream(p, () => rawFlood(p.streamBytes, 60_000, c), {
      archives: false,
    });
  });
}
