/**
 * The floor of a WebSocket terminal (relay-floor-child.ts): the same keystrokes and the same
 * stream through a WebSocket to a PTY and back with nothing but uWS and node-pty in the server
 * process. Raw node-pty is the PTY alone and the uWS floor the socket alone; this is both in one
 * process, the way a terminal server must be.
 */
import { join } from 'node:path';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { echoUnderLoad, type EchoRun } from '../channel';
import { spawnTracked, stopChild, waitForOutput } from '../children';
import { echoRun, type Profile } from '../options';
import { Budget, phase, type Cleanup } from '../phase';
import { ECHO_ARGV, floodArgv } from '../programs';
import { rawSocketSession } from '../raw-socket';
import { timeChannelReader } from '../flood';
import { medianStream } from '../metrics/stream-rounds';
import { rawStreamBaseline } from './raw';
import type { EchoMetric, FanoutMetric, TargetResult } from '../types';

/** A relay whose every socket runs `argv` on a PTY of its own. */
async function startRelay(argv: string[], c: Cleanup): Promise<{ url: string; pid: number }> {
  const child = spawnTracked(
    process.execPath,
    [...SERVICE_NODE_FLAGS, join(__dirname, '..', 'relay-floor-child.js'), JSON.stringify(argv)],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...SERVICE_ENV } },
  );
  c.add(() => stopChild(child, 1000));
  const m = await waitForOutput(child, /port (\d+)/, 15_000, 'relay floor');
  return { url: `ws://127.0.0.1:${m[1] as string}/`, pid: child.pid as number };
}

/**
 * As the services' echo: one measured session, the others typing `rateHz` keystrokes a second. A
 * socket is a session: the relay spawns a PTY for it and kills it when the socket closes.
 */
async function relayEcho(sessions: number, run: EchoRun, rateHz: number, c: Cleanup): Promise<EchoMetric> {
  const { url, pid } = await startRelay(ECHO_ARGV, c);
  return echoUnderLoad(() => rawSocketSession(url, c), sessions, run, rateHz, [pid], c);
}

/** One reader of one stream: each PTY read goes out as one binary message, nothing else is done. */
async function relayFlood(bytes: number, timeoutMs: number, c: Cleanup): Promise<FanoutMetric> {
  const { url, pid } = await startRelay(floodArgv(bytes), c);
  const { channel } = await rawSocketSession(url, c);
  return timeChannelReader(channel, pid, timeoutMs);
}

export async function benchRelayFloor(p: Profile, result: TargetResult, budget: Budget): Promise<void> {
  await phase(result, 'echo_1', budget, async (c) => {
    result.metrics.echo_1 = await relayEcho(1, echoRun(p), p.busyRateHz, c);
  });
  await phase(result, 'echo_loaded', budget, async (c) => {
    result.metrics.echo_loaded = await relayEcho(p.loadedSessions, echoRun(p), p.busyRateHz, c);
  });
  await phase(result, 'throughput_1', budget, async (c) => {
    result.metrics.throughput['1'] = await medianStream(p, () => relayFlood(p.streamBytes, 60_000, c), {
      baseline: rawStreamBaseline(p),
      archives: false,
    });
  });
}
