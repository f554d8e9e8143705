import { LARGE_FRAME_BYTES, entryWeight, type LogEntry } from '@pty-ws/ports';
import type { EdgeMetrics } from '@pty-ws/telemetry';
import type { Conn } from './connection';
import type { EchoLatency } from './echo-latency';
import { countSent, writeLive, type Delivered, type SentCounts } from './frame-send';
import type { OutputFlow } from './output-flow';
import type { SerializedFrame } from './serialized-frame';

/** Read once: @pty-ws/ports' CommonJS exports are getters, and these are used per entry. */
const LARGE_BYTES = LARGE_FRAME_BYTES;
const weightOf = entryWeight;

/**
 * The session hub's live feed: the frames it delivered and has not yet written to its live
 * connections. They are written at the end of the turn's synchronous work (a microtask), or
 * before anything else is sent to one of the connections (`Conn.flushFeed`: a reply, a Keyframe,
 * a goodbye, going behind), so a connection's frames keep their order and `lastSeq` counts
 * exactly what was written.
 *
 * A cluster edge gets several entries from one NATS read: uWS's topics batched them into one
 * write per socket, and a send per frame made ~1.8× the socket writes (100 observers of small
 * frames: ~20 % more of the edge's CPU). Here a socket's small frames of one batch go out corked,
 * as one write, and a large one on its own. A batch is written as soon as it holds
 * LARGE_FRAME_BYTES, so large frames go out one by one, each followed by the flow's checks.
 */
export class LiveBatch {
  private batch: Delivered[] = [];
  private bytes = 0;
  private queued = false;

  constructor(
    private readonly conns: Iterable<Conn>,
    private readonly flow: OutputFlow,
    private readonly metrics: EdgeMetrics | undefined,
    private readonly echo: EchoLatency | undefined,
  ) {}

  /** A delivered entry and its frame, for every live connection. */
  push(entry: LogEntry, frame: SerializedFrame): void {
    this.batch.push({ entry, frame });
    this.bytes += frame.bytes;
    // A large frame, or small ones adding up to one, is written now: the pace and slow-consumer
    // checks after it must see each one (a release of held output stops once readers fall behind
    // again; a cluster edge can get megabytes from one NATS read).
    if (this.bytes >= LARGE_BYTES) this.flushNow();
    else if (!this.queued) {
      this.queued = true;
      queueMicrotask(this.flush);
    }
  }

  /** Writes what was delivered and not yet written (a no-op when nothing is waiting). */
  readonly flushNow = (): void => {
    if (this.batch.length > 0) this.flush();
  };

  /** The hub is going away with its connections: nothing waiting is written. */
  clear(): void {
    this.batch = [];
    this.bytes = 0;
  }

  private readonly flush = (): void => {
    this.queued = false;
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.bytes = 0;
    const sent: SentCounts[] = batch.map(() => ({ json: 0, binary: 0 }));
    for (const conn of this.conns) {
      if (conn.feed !== 'live' || !conn.open) continue;
      writeLive(conn, batch, sent, this.flow);
      this.flow.checkLive(conn);
    }
    let weight = 0;
    const metrics = this.metrics;
    batch.forEach(({ entry, frame }, i) => {
      weight += weightOf(entry);
      const n = sent[i] as SentCounts;
      if (metrics) countSent(metrics, this.echo, entry, frame, n.json, n.binary);
    });
    this.flow.delivered(weight);
  };
}
