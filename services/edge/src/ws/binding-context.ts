import {
  BindingError,
  type BindingErrorCode,
  type GoodbyeReason,
  type SessionHostCapabilities,
} from '@pty-ws/protocol';
import type { A2aOperations } from '@pty-ws/a2a';
import { REPLAY_STALL_MS, type Clock, type FrameLog, type SessionControl, type SessionRegistry } from '@pty-ws/ports';
import type { EdgeMetrics, Tracer } from '@pty-ws/telemetry';
import type { FrameLimits } from '../limits';
import type { EdgeAudit } from '../audit/edge-audit';
import type { Logger } from '../logger';
import type { Conn } from './connection';
import type { HubRegistry } from './hubs';
import type { SessionHub } from './session-hub';

export interface AttachDeps {
  control: SessionControl;
  /**
   * GetTask, ListTasks, CancelTask and task lookups: the A2A core every binding shares, confined
   * to the connection's session. Absent (harnesses without a task store): those verbs answer
   * UNSUPPORTED_OPERATION.
   */
  a2a?: A2aOperations;
  log: FrameLog;
  /** How a closed session ended, for a join after the close whose log holds no `Closed` yet. */
  registry: Pick<SessionRegistry, 'get'>;
  hubs: HubRegistry;
  logger: Logger;
  edgeId: string;
  /** What hello advertises; a function where it changes (cluster: the live agents' capabilities). */
  sessionHost: SessionHostSource;
  metrics?: EdgeMetrics;
  /** Per-connection inbound budget; absent: unlimited (unit harnesses). */
  frameLimits?: FrameLimits;
  /**
   * PTYWS_MAX_FRAME_BYTES: a larger message gets Error INVALID_REQUEST and close 1009. uWS's own
   * limit is set above it (uwsPayloadLimit, limits/fragment-budget.ts) so such messages reach this check; absent: unlimited.
   */
  maxFrameBytes?: number;
  /**
   * How long a socket ended with a close frame may take nothing of its backlog before it is ended
   * anyway (end-when-sent.ts); the edge passes PTYWS_PONG_TIMEOUT_MS. Absent: 90 s.
   */
  closeStallMs?: number;
  /** Where request spans go; default the process's global tracer provider (the edge service). */
  tracer?: Tracer;
  /** Attaches, role changes, input attribution, resizes; absent: not audited. */
  audit?: EdgeAudit;
  /** Timers and timestamps of the binding (closed-session grace, keyframe request limit); default the system clock. */
  clock?: Clock;
}

export type SessionHostSource = SessionHostCapabilities | (() => SessionHostCapabilities);

export function currentSessionHost(source: SessionHostSource): SessionHostCapabilities {
  return typeof source === 'function' ? source() : source;
}

/** What the parts of the binding (join flow, task verbs, PTY verbs) share with its owner. */
export interface BindingContext {
  readonly deps: AttachDeps;
  /** deps.clock, or the system clock. */
  readonly clock: Clock;
  /** The connection's logger (session, client and trace id on every line). */
  log(conn: Conn): Logger;
  /** binding_goodbye, then the close (binding §5.4). */
  goodbye(conn: Conn, reason: GoodbyeReason, code: number, detail?: string): void;
  /** A fatal error: the Error frame, then the close with `closeCode` (binding §6). */
  fail(conn: Conn, code: BindingErrorCode, message: string, requestId: string | undefined, closeCode: number): void;
}

export function hubOf(ctx: BindingContext, conn: Conn): SessionHub {
  const hub = ctx.deps.hubs.get(conn.sessionId);
  if (!hub) throw new BindingError('INTERNAL', 'session hub missing');
  return hub;
}

/**
 * Sends log entries in (afterSeq, toSeq] that this connection has not seen yet, at its socket's
 * pace; a reader that stops reading meanwhile is skipped forward (SessionHub.sendRange).
 */
export async function sendLogRange(ctx: BindingContext, conn: Conn, afterSeq: number, toSeq: number): Promise<void> {
  const hub = hubOf(ctx, conn);
  await hub.sendRange(conn, Math.max(afterSeq, 0), toSeq, REPLAY_STALL_MS);
  if (conn.position < toSeq && conn.feed !== 'lagged') conn.position = toSeq;
}
