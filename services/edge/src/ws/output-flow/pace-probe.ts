import { PACE_PROBE_GAP_MS, PACE_PROBE_LATE_MS } from '@pty-ws/ports';
import { SEND_DROPPED } from '../../uws';
import type { Conn } from '../connection';

/** Read once: @pty-ws/ports' CommonJS exports are getters, and these are read per reader and batch. */
const PROBE_GAP_MS = PACE_PROBE_GAP_MS;
const PROBE_LATE_MS = PACE_PROBE_LATE_MS;

/**
 * A reader's progress as it sees it, not as uWS does. uWS's backlog counts only what the kernel
 * has not taken yet, and on loopback the kernel takes a lot: up to tcp_wmem's and tcp_rmem's
 * maxima per socket (36 MiB here). A reader that stopped reading, or reads at a third of the
 * output's pace, then shows no backlog at all for tens of megabytes, and the edge took it for a
 * reader that keeps up: output was never held for it, and readers whose kernel buffers happened
 * to be small were skipped forward instead (cluster fan-out bench: every one of 100 readers).
 *
 * So while output flows, each reader gets a WebSocket ping now and then, queued behind the output
 * already sent. Its pong comes back once the reader has read everything before it, so a ping
 * that is still unanswered after PACE_PROBE_LATE_MS means the reader is at least that far behind.
 * Clients answer pings (binding §2.4; browsers and WebSocket libraries do it without the page).
 */

/** The ping payload that marks a pace probe: its pong is the probe's answer, not keepalive's. */
export const PACE_PROBE_PAYLOAD = 'pace';

/**
 * Sends the reader a probe when none is out, the last answer is PACE_PROBE_GAP_MS old and at
 * least `minBytes` of output flowed since the last probe: a session that only echoes keystrokes
 * never gets one. `flowed` is the session's running count of output bytes on this edge.
 */
export function probeReader(conn: Conn, flowed: number, minBytes: number, now: number): void {
  if (!conn.ws || conn.probeSentAt !== undefined) return;
  if (now - (conn.probeAnsweredAt ?? -Infinity) < PROBE_GAP_MS) return;
  const mark = conn.probeFlowMark ?? 0;
  if ((flowed >= mark ? flowed - mark : flowed) < minBytes) return; // (a new hub counts from 0)
  // A dropped ping is no probe: the reader is past uWS's bound and is skipped forward anyway.
  if (conn.ws.ping(PACE_PROBE_PAYLOAD) === SEND_DROPPED) return;
  conn.probeSentAt = now;
  conn.probeFlowMark = flowed;
}

/** Whether the reader's probe has been out for longer than PACE_PROBE_LATE_MS. */
export function probeLate(conn: Conn, now: number): boolean {
  return conn.probeSentAt !== undefined && now - conn.probeSentAt > PROBE_LATE_MS;
}

/** A pong's payload is a probe's: the reader has read everything sent before that probe. */
export function isProbeAnswer(message: ArrayBuffer): boolean {
  return (
    message.byteLength === PACE_PROBE_PAYLOAD.length && Buffer.from(message).toString('latin1') === PACE_PROBE_PAYLOAD
  );
}

/** The probe's pong came `now` (the hub's clock, monotonic). */
export function probeAnswered(conn: Conn, now: number): void {
  conn.probeSentAt = undefined;
  conn.probeAnsweredAt = now;
}
