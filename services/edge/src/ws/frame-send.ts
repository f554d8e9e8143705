import { LARGE_FRAME_BYTES, type LogEntry } from '@pty-ws/ports';
import { frameKindOf, type EdgeMetrics, type FrameKind } from '@pty-ws/telemetry';
import { SEND_DROPPED, sendMessage } from '../uws';
import type { Conn } from './connection';
import type { EchoLatency } from './echo-latency';
import type { OutputFlow } from './output-flow';
import type { SerializedFrame } from './serialized-frame';

/** Read once: @pty-ws/ports' CommonJS exports are getters, and this is read per frame and socket. */
const LARGE_BYTES = LARGE_FRAME_BYTES;

/**
 * How the session hub's frames reach a socket: the live feed's batch, corked, and one frame at a
 * time for catch-ups and replays. Each frame was serialized once per format (serialized-frame.ts);
 * a send uWS would drop skips the connection forward instead (the output flow's rule).
 */

/** A delivered entry and its serialized frame, until the live connections have it. */
export interface Delivered {
  entry: LogEntry;
  frame: SerializedFrame;
}

/** How many sockets a delivered frame was written to, per format (metrics). */
export interface SentCounts {
  json: number;
  binary: number;
}

/** Whether the frame goes to this connection on its own (an Output frame's JSON is ~4/3 its bytes). */
function isLarge(conn: Conn, frame: SerializedFrame): boolean {
  const bytes = frame.binary ? (conn.binary ? frame.binary.length : (frame.bytes * 4) / 3) : frame.bytes;
  return bytes >= LARGE_BYTES;
}

/** Whether a frame belongs on this connection (README interpretation 2). */
export function wants(conn: Conn, frame: { taskId?: string }): boolean {
  return frame.taskId !== undefined ? conn.tasks?.has(frame.taskId) === true : conn.attached;
}

/** The batch's frames past the live connection's position, small ones corked together. */
export function writeLive(
  conn: Conn,
  batch: readonly Delivered[],
  sent: readonly SentCounts[],
  flow: OutputFlow,
): void {
  const ws = conn.ws;
  if (!ws) return;
  for (let i = 0; i < batch.length && conn.feed === 'live';) {
    // A large frame, or the last: alone (one write anyway).
    if (i === batch.length - 1 || isLarge(conn, (batch[i] as Delivered).frame)) {
      writeItem(conn, batch[i] as Delivered, sent[i] as SentCounts, flow);
      i++;
      continue;
    }
    ws.cork(() => {
      do {
        writeItem(conn, batch[i] as Delivered, sent[i] as SentCounts, flow);
        i++;
      } while (i < batch.length && conn.feed === 'live' && !isLarge(conn, (batch[i] as Delivered).frame));
    });
  }
}

/** One delivered frame to a live connection, unless it caught up past it (a catch-up meanwhile). */
function writeItem(conn: Conn, { frame }: Delivered, counts: SentCounts, flow: OutputFlow): void {
  if (frame.seq <= conn.position) return;
  conn.position = frame.seq;
  if (!wants(conn, frame)) return;
  const format = writeFrame(conn, frame, flow);
  if (format !== undefined) counts[format]++;
}

/**
 * Writes a frame the connection wants, in its format (events travel as JSON in both), and counts
 * it in `lastSeq`. A send uWS drops (the socket is past maxBackpressure) skips the connection
 * forward instead (undefined: nothing written); with `bounded`, so does a send that would take
 * the backlog past the hard bound (catch-up: hundreds of frames at once). Live connections are
 * held under it by the check after each batch (tooSlow).
 */
export function writeFrame(
  conn: Conn,
  frame: SerializedFrame,
  flow: OutputFlow,
  bounded = false,
): 'json' | 'binary' | undefined {
  const ws = conn.ws;
  if (!ws || !conn.open) return undefined;
  const binary = conn.binary && frame.binary !== undefined;
  const bytes = binary ? (frame.binary as Uint8Array) : frame.jsonBytes;
  if ((bounded && flow.passesHardBound(conn, bytes.length)) || sendMessage(ws, bytes, binary) === SEND_DROPPED) {
    flow.skipForward(conn);
    return undefined;
  }
  conn.lastSeq = frame.seq;
  if (frame.closedReason !== undefined) conn.closedReason = frame.closedReason;
  return binary ? 'binary' : 'json';
}

/** Metrics per frame and format sent, never per socket: `json` and `binary` count the sockets. */
export function countSent(
  metrics: EdgeMetrics,
  echo: EchoLatency | undefined,
  entry: LogEntry,
  frame: SerializedFrame,
  json: number,
  binary: number,
): void {
  const kind: FrameKind =
    entry.type === 'output'
      ? 'output'
      : frameKindOf(typeof entry.payload['kind'] === 'string' ? entry.payload['kind'] : entry.op);
  if (json > 0) metrics.frameOut(kind, frame.jsonBytes.length, json);
  if (binary > 0 && frame.binary) metrics.frameOut(kind, frame.binary.length, binary);
  if (kind === 'output') echo?.output();
}
