/** Counts the bytes one reader receives from a flooding session until the end marker. */
import type { ByteChannel } from './channel';
import { CpuMeter, MachineMeter } from './proc';
import { FLOOD_END } from './programs';
import { ReaderLoopMeter } from './reader-loop';
import { round } from './stats';
import type { FanoutMetric } from './types';

const MARKER = Buffer.from(FLOOD_END, 'latin1');

export class FloodReader {
  bytes = 0;
  /** performance.now() when the end marker arrived. */
  endAt: number | undefined;
  readonly done: Promise<void>;
  private tail = Buffer.alloc(0);
  private resolveDone!: () => void;

  constructor() {
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  feed(chunk: Buffer): void {
    if (this.endAt !== undefined) return;
    this.bytes += chunk.length;
    // Only the last few bytes can hold the marker; keep a tail in case it straddles two chunks.
    const look = Buffer.concat([this.tail, chunk.subarray(Math.max(0, chunk.length - 32))]);
    if (look.includes(MARKER)) {
      this.endAt = performance.now();
      this.resolveDone();
    } else this.tail = look.subarray(Math.max(0, look.length - MARKER.length));
  }

  /**
   * The screen a lagged reader was handed (a Keyframe): if the marker is on it, the reader has
   * reached the end of the flood, though it was skipped past the bytes (they are not counted).
   */
  screen(snapshot: Buffer): void {
    if (this.endAt !== undefined || !snapshot.includes(MARKER)) return;
    this.endAt = performance.now();
    this.resolveDone();
  }

  /** Ends the wait without the marker (socket closed, session closed, timeout). */
  abort(): void {
    this.resolveDone();
  }
}

/**
 * One reader's flood, timed from `start` (which sends the key that starts it) to the end marker.
 * `cpu` reads the meters the caller started just before: the server's and the reader's percent.
 */
export async function timeOneReader(
  reader: FloodReader,
  start: () => void,
  timeoutMs: number,
  cpu: { server: () => number; client: () => number },
): Promise<FanoutMetric> {
  const machine = new MachineMeter();
  const loop = new ReaderLoopMeter();
  const t0 = performance.now();
  start();
  const timer = setTimeout(() => reader.abort(), timeoutMs);
  await reader.done;
  clearTimeout(timer);
  if (reader.endAt === undefined) throw new Error(`flood did not end within ${timeoutMs} ms`);
  const duration = reader.endAt - t0;
  const rate = round(reader.bytes / 1e6 / (duration / 1000), 2);
  return {
    observers: 1,
    bytes_per_observer: reader.bytes,
    per_observer_mb_s: rate,
    min_observer_mb_s: rate,
    total_mb_s: rate,
    duration_ms: round(duration, 1),
    server_cpu_pct: round(cpu.server(), 1),
    client_cpu_pct: round(cpu.client(), 1),
    client_loop_pct: round(loop.busyPercent(), 1),
    client_gc_ms: round(loop.gcMs(), 1),
    machine_cpu_pct: round(machine.percent(), 1),
    lagged_observers: 0,
    incomplete_observers: 0,
  };
}

/**
 * One reader of a flood on `channel`, served by another process (`serverPid`, whose CPU is the
 * server's figure): the start key is typed once the shell has had time to reach `read`.
 */
export async function timeChannelReader(
  channel: ByteChannel,
  serverPid: number,
  timeoutMs: number,
): Promise<FanoutMetric> {
  const reader = new FloodReader();
  channel.setListener((chunk) => reader.feed(chunk));
  await new Promise((r) => setTimeout(r, 200));
  const server = new CpuMeter([serverPid]);
  const client = new CpuMeter([process.pid]);
  return timeOneReader(reader, () => channel.write(Buffer.from('\r')), timeoutMs, {
    server: () => server.percent(),
    client: () => client.percent(),
  });
}
