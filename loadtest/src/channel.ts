/**
 * A byte pipe to one terminal, whatever carries it: node-pty in this process (the baseline) or a
 * WebSocket to the service. The echo and flood measurements only see this interface, so both
 * targets are timed by exactly the same code.
 */
import type { Cleanup } from './phase';
import { CpuMeter } from './proc';
import { mapLimit } from './rest';
import { round, summarize } from './stats';
import type { EchoMetric } from './types';

export interface ByteChannel {
  write(data: Buffer): void;
  /** Replaces the single output listener (one at a time keeps the hot path to one call). */
  setListener(listener: (chunk: Buffer) => void): void;
}

/** Characters typed in the echo measurement; 'Z' is kept apart for the readiness probe. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY';
const PROBE = 'Z';
const noop = (): void => {};

/** Resolves with the ms from writing `ch` until an output chunk contains it. */
export function roundTrip(channel: ByteChannel, ch: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const code = ch.charCodeAt(0);
    const timer = setTimeout(() => {
      channel.setListener(noop);
      reject(new Error(`no echo of '${ch}' within ${timeoutMs} ms`));
    }, timeoutMs);
    let t0 = 0;
    channel.setListener((chunk) => {
      if (!chunk.includes(code)) return;
      const dt = performance.now() - t0;
      clearTimeout(timer);
      channel.setListener(noop);
      resolve(dt);
    });
    t0 = performance.now();
    channel.write(Buffer.from(ch, 'latin1'));
  });
}

/**
 * Waits until the echo program is up: the probe comes back, then 100 ms of quiet lets a
 * possible second copy (echoed once by the tty before `stty raw -echo` ran, once by cat) drain.
 */
export async function awaitEchoReady(channel: ByteChannel, timeoutMs = 5000): Promise<void> {
  await roundTrip(channel, PROBE, timeoutMs);
  await new Promise((r) => setTimeout(r, 100));
}

/**
 * Closed loop: type one character, wait for it, type the next. The first `warmup` round trips are
 * discarded: they pay for JIT compilation and first-use allocations, not for steady typing.
 */
export interface EchoRun {
  samples: number;
  warmup: number;
  /**
   * Sessions typed through (`warmup` echoes each) and closed before the measured ones open. V8
   * optimizes a server's hot path over its first few sessions, not its first session: objects of
   * a new session meet code specialized for the last one and it is compiled again (measured on
   * the service: 190, 40, 13, 3 and 2 optimizations in its first five sessions of 3000 echoes,
   * and an echo p99 of 2-4 ms until they settle). The first of them is reported apart
   * (`first_session`): what the first user of a fresh process feels.
   */
  warmupSessions: number;
}

/** One session's channel and how to end that session. */
export interface EchoSession {
  channel: ByteChannel;
  close(): unknown;
}

export async function sampleEcho(channel: ByteChannel, run: EchoRun, timeoutMs = 5000): Promise<number[]> {
  const { samples, warmup } = run;
  for (let i = 0; i < warmup; i++) await roundTrip(channel, ALPHABET[i % ALPHABET.length] as string, timeoutMs);
  const out: number[] = [];
  for (let i = 0; i < samples; i++)
    out.push(await roundTrip(channel, ALPHABET[i % ALPHABET.length] as string, timeoutMs));
  return out;
}

/** Open loop background typing on each channel at `rateHz`; returns a stop function. */
export function startTyping(channels: ByteChannel[], rateHz: number): () => void {
  const timers: NodeJS.Timeout[] = [];
  const starts: NodeJS.Timeout[] = [];
  const period = 1000 / rateHz;
  for (const c of channels) {
    c.setListener(noop);
    // Staggered starts so the background keystrokes do not arrive in lockstep bursts.
    starts.push(
      setTimeout(() => timers.push(setInterval(() => c.write(Buffer.from('b')), period)), Math.random() * period),
    );
  }
  return () => {
    for (const t of starts) clearTimeout(t);
    for (const t of timers) clearInterval(t);
  };
}

/** Types through `run.warmupSessions` sessions one after the other; the first one's latencies. */
async function warmUpSessions(open: () => Promise<EchoSession>, run: EchoRun): Promise<number[] | undefined> {
  let first: number[] | undefined;
  for (let i = 0; i < run.warmupSessions; i++) {
    const { channel, close } = await open();
    try {
      await awaitEchoReady(channel);
      const ms = await sampleEcho(channel, { samples: run.warmup, warmup: 0, warmupSessions: 0 });
      first ??= ms;
    } finally {
      await close();
    }
  }
  return first;
}

/**
 * The echo scenario on any target: after the warm-up sessions, `sessions` are opened; the first
 * is measured while the others type `rateHz` keystrokes a second. `cpuPids` are the server's
 * processes; every session opened is also torn down by the phase's cleanup.
 */
export async function echoUnderLoad(
  open: () => Promise<EchoSession>,
  sessions: number,
  run: EchoRun,
  rateHz: number,
  cpuPids: number[],
  cleanup: Cleanup,
): Promise<EchoMetric> {
  const first = await warmUpSessions(open, run);
  const channels = (await mapLimit(Array.from({ length: sessions }), 10, open)).map((s) => s.channel);
  await Promise.all(channels.map((c) => awaitEchoReady(c)));
  const [measured, ...busy] = channels;
  if (!measured) throw new Error('no session');
  const stop = startTyping(busy, rateHz);
  cleanup.add(stop);
  // Let the background typing reach its steady rate before the first sample.
  if (busy.length) await new Promise((r) => setTimeout(r, 300));
  const cpu = new CpuMeter(cpuPids);
  const latencies = await sampleEcho(measured, run);
  const serverCpu = round(cpu.percent(), 1);
  stop();
  return {
    sessions: channels.length,
    busy_rate_hz: busy.length ? rateHz : 0,
    server_cpu_pct: serverCpu,
    ...summarize(latencies),
    ...(first?.length ? { first_session: summarize(first) } : {}),
  };
}
