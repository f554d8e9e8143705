import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  AUTH_FAILURE_REASONS,
  CONNECTION_ROLES,
  FRAME_KINDS,
  KEYFRAME_TRIGGERS,
  MIRROR_PARSE_ERROR_KINDS,
  OUTPUT_HOLD_REASONS,
  RATE_LIMITS,
  SUBPROTOCOLS,
  SUBPROTOCOL_BINARY_LABEL,
  SUBPROTOCOL_JSON_LABEL,
  WIRE_FORMATS,
  authFailureReasonOf,
  boundedToken,
  connectionRoleOf,
  type FrameKind,
  type KeyframeTrigger,
  type MirrorParseErrorKind,
  type OutputHoldReason,
  type RateLimit,
  type SessionState,
  type WireFormat,
} from './labels';

/** What `ptyws_connections` needs to know of a live connection (the edge's `Conn` fits). */
export interface ConnectionSample {
  readonly role?: string | undefined;
  readonly binary: boolean;
}

/** What `ptyws_sessions` needs to know of a session on its owner agent. */
export interface SessionSample {
  readonly state: SessionState;
  readonly backend: string;
}

/** What an HTTP server needs to answer `GET /metrics`. */
export interface MetricsExposition {
  text(): Promise<string>;
  readonly contentType: string;
}

/** Removes a source registered with `trackConnections` / `trackSessions`. */
export type Untrack = () => void;

/** The recorders the edge calls (HTTP/WebSocket front). */
export interface EdgeMetrics {
  /** `ptyws_connections{role,subprotocol}` is computed from the sources at scrape time. */
  trackConnections(source: () => Iterable<ConnectionSample>): Untrack;
  connectionOpened(binary: boolean): void;
  /** One fan-out publish of one frame in one format; `sockets` = subscribers it reached. */
  frameOut(kind: FrameKind, bytes: number, sockets: number): void;
  frameIn(format: WireFormat, bytes: number): void;
  replayRequested(): void;
  replayFramesServed(frames: number): void;
  replayOutOfRange(): void;
  hotWindowMiss(): void;
  lagSkip(): void;
  connectionReaped(): void;
  authFailure(reason: string): void;
  rateLimited(limit: RateLimit): void;
  /** Input frame in → first Output frame out on the same session, measured at the edge. */
  echoLatency(seconds: number): void;
}

/** The recorders the pty-agent calls (session owner). */
export interface AgentMetrics extends TranscriptArchiveMetrics {
  /** `ptyws_sessions{state,backend}` is computed from the sources at scrape time. */
  trackSessions(source: () => Iterable<SessionSample>): Untrack;
  keyframe(trigger: KeyframeTrigger, bytes: number, seconds: number): void;
  /** `count` parse errors of a session's headless terminal (it prints none of them). */
  mirrorParseErrors(kind: MirrorParseErrorKind, count: number): void;
  /** A session's PTY stopped (+1) or resumed (-1) being read, for `reason`. */
  outputHeld(reason: OutputHoldReason, delta: 1 | -1): void;
  /** Output sequenced but not yet in the frame log changed by `delta` bytes (summed over sessions). */
  frameLogWaiting(delta: number): void;
  /** A session was ended because its frame log could not be written (PTYWS_LOG_OUTAGE_GIVE_UP_S). */
  frameLogCut(): void;
}

/** Recorders of the transcript archive (agent): what was written, what failed, what waits. */
export interface TranscriptArchiveMetrics {
  /** One chunk appended: its frames and their payload bytes (before compression). */
  archiveChunkWritten(frames: number, bytes: number): void;
  /** A chunk write failed (retried; the frames stay in the replay log meanwhile). */
  archiveWriteFailed(): void;
  /** Frames logged but not archived yet changed by `delta` (summed over sessions). */
  archiveLag(delta: number): void;
  /** The oldest chunks of an archive over its byte quota were dropped: their frames and compressed bytes. */
  archiveDropped(frames: number, bytes: number): void;
}

/** Recorders of the audit trail (edge): events recorded, and what its sinks could not write. */
export interface AuditMetrics {
  auditRecorded(): void;
  /** Events dropped because a sink's queue was full. */
  auditDropped(events: number): void;
  /** A batch write failed (it is retried). */
  auditWriteFailed(): void;
}

/** Recorders of the cluster adapters (NATS, Postgres). */
export interface ClusterMetrics {
  natsConsumerLag(messages: number): void;
  pgQuery(operation: string, seconds: number): void;
}

export interface MetricsOptions {
  /** process_* and nodejs_* (event-loop lag, GC, heap, handles); default true. */
  defaultMetrics?: boolean;
  /** Labels put on every series (e.g. `{ service: 'edge' }`); never per-session values. */
  labels?: Record<string, string>;
}

const ECHO_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const KEYFRAME_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
const PG_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

const KIND_INDEX: Readonly<Record<FrameKind, number>> = Object.fromEntries(FRAME_KINDS.map((k, i) => [k, i])) as Record<
  FrameKind,
  number
>;

/**
 * The pty-ws metrics on a registry of their own (not prom-client's global one, so one process can
 * hold several nodes in tests). Names and labels are the deploy contract's
 * (tests/deploy/lib/contract.ts): the Prometheus rules and the Grafana dashboard select them.
 *
 * Hot-path recorders (frames and bytes in/out) only add to plain numbers; the counters read them
 * at scrape time, so a published frame costs a few additions and no allocation.
 */
export class Metrics implements EdgeMetrics, AgentMetrics, ClusterMetrics, AuditMetrics, MetricsExposition {
  readonly registry: Registry;

  private readonly connectionSources = new Set<() => Iterable<ConnectionSample>>();
  private readonly sessionSources = new Set<() => Iterable<SessionSample>>();

  private readonly framesOut = new Float64Array(FRAME_KINDS.length);
  private readonly bytesOut = new Float64Array(FRAME_KINDS.length);
  private readonly socketFramesOut = new Float64Array(FRAME_KINDS.length);
  private readonly framesIn = new Float64Array(WIRE_FORMATS.length);
  private readonly bytesIn = new Float64Array(WIRE_FORMATS.length);

  private readonly connectionsOpened: Counter<'subprotocol'>;
  private readonly replayRequests: Counter;
  private readonly replayFrames: Counter;
  private readonly replayOutOfRanges: Counter;
  private readonly hotWindowMisses: Counter;
  private readonly lagSkips: Counter;
  private readonly reaped: Counter;
  private readonly authFailures: Counter<'reason'>;
  private readonly rateLimits: Counter<'limit'>;
  private readonly auditEvents: Counter;
  private readonly auditDrops: Counter;
  private readonly auditFailures: Counter;
  private readonly echo: Histogram;
  private readonly keyframes: Counter<'trigger'>;
  private readonly keyframeBytes: Counter<'trigger'>;
  private readonly keyframeSeconds: Histogram<'trigger'>;
  private readonly mirrorParseErrorCounts: Counter<'kind'>;
  private readonly archiveChunks: Counter;
  private readonly archiveBytes: Counter;
  private readonly archiveFailures: Counter;
  private readonly archiveDroppedBytes: Counter;
  private readonly archiveDroppedFrames: Counter;
  private readonly archiveLagFrames: Gauge;
  private readonly frameLogWaitingBytes: Gauge;
  private readonly frameLogCuts: Counter;
  private readonly outputHeldSessions: Gauge<'reason'>;
  private readonly natsLag: Gauge;
  private readonly pgQuerySeconds: Histogram<'operation'>;

  constructor(opts: MetricsOptions = {}) {
    const registry = new Registry();
    this.registry = registry;
    if (opts.labels) registry.setDefaultLabels(opts.labels);
    if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
    const registers = [registry];
    // Collect callbacks are plain functions over `self`: prom-client calls them with the metric as `this`.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;

    // ---- edge ----------------------------------------------------------------------------------
    new Gauge({
      name: 'ptyws_connections',
      help: 'Open WebSocket connections on this edge, by PTY role (none = not joined) and subprotocol.',
      labelNames: ['role', 'subprotocol'] as const,
      registers,
      collect() {
        const counts = new Map<string, number>();
        for (const source of self.connectionSources) {
          for (const c of source()) {
            const key = `${connectionRoleOf(c.role)}\u0000${c.binary ? SUBPROTOCOL_BINARY_LABEL : SUBPROTOCOL_JSON_LABEL}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        }
        this.reset();
        for (const role of CONNECTION_ROLES) {
          for (const subprotocol of SUBPROTOCOLS) {
            this.set({ role, subprotocol }, counts.get(`${role}\u0000${subprotocol}`) ?? 0);
          }
        }
      },
    });
    this.connectionsOpened = new Counter({
      name: 'ptyws_connections_opened_total',
      help: 'WebSocket connections accepted by this edge, by subprotocol.',
      labelNames: ['subprotocol'] as const,
      registers,
    });
    for (const subprotocol of SUBPROTOCOLS) this.connectionsOpened.inc({ subprotocol }, 0);

    const perKind = (name: string, help: string, values: Float64Array) =>
      new Counter({
        name,
        help,
        labelNames: ['kind'] as const,
        registers,
        collect() {
          this.reset();
          FRAME_KINDS.forEach((kind, i) => this.inc({ kind }, values[i] ?? 0));
        },
      });
    perKind(
      'ptyws_frames_out_total',
      'Log frames fanned out by the edge: one per frame and wire format published to at least one socket.',
      this.framesOut,
    );
    perKind('ptyws_bytes_out_total', 'Bytes of the frames counted by ptyws_frames_out_total.', this.bytesOut);
    perKind(
      'ptyws_socket_frames_out_total',
      'Fan-out deliveries: frames published times the sockets subscribed to them.',
      this.socketFramesOut,
    );
    const perFormat = (name: string, help: string, values: Float64Array) =>
      new Counter({
        name,
        help,
        labelNames: ['format'] as const,
        registers,
        collect() {
          this.reset();
          WIRE_FORMATS.forEach((format, i) => this.inc({ format }, values[i] ?? 0));
        },
      });
    perFormat('ptyws_frames_in_total', 'WebSocket messages received from clients, by format.', this.framesIn);
    perFormat('ptyws_bytes_in_total', 'Bytes of the messages counted by ptyws_frames_in_total.', this.bytesIn);

    const counter = (name: string, help: string) => new Counter({ name, help, registers });
    this.replayRequests = counter('ptyws_replay_requests_total', 'Joins and task subscriptions with replay_from.');
    this.replayFrames = counter('ptyws_replay_frames_total', 'Log frames sent to answer replay_from on join.');
    this.replayOutOfRanges = counter(
      'ptyws_replay_out_of_range_total',
      'Replay requests outside the retained window (REPLAY_OUT_OF_RANGE).',
    );
    this.hotWindowMisses = counter(
      'ptyws_hot_window_misses_total',
      "Catch-ups that had to read the frame log because the edge's hot window did not reach back far enough.",
    );
    this.lagSkips = counter(
      'ptyws_output_lag_skips_total',
      'Slow consumers skipped forward (PTY_OUTPUT_LAGGED follows when they drain).',
    );
    this.reaped = counter(
      'ptyws_reaped_connections_total',
      'Connections closed by the keepalive because no pong arrived within PTYWS_PONG_TIMEOUT_MS.',
    );
    this.authFailures = new Counter({
      name: 'ptyws_auth_failures_total',
      help: 'Rejected bearer tokens (WebSocket upgrades and REST), by reason.',
      labelNames: ['reason'] as const,
      registers,
    });
    for (const reason of AUTH_FAILURE_REASONS) this.authFailures.inc({ reason }, 0);
    this.rateLimits = new Counter({
      name: 'ptyws_rate_limited_total',
      help: 'Requests refused with RATE_LIMITED, by limit.',
      labelNames: ['limit'] as const,
      registers,
    });
    for (const limit of RATE_LIMITS) this.rateLimits.inc({ limit }, 0);
    this.auditEvents = new Counter({
      name: 'ptyws_audit_events_total',
      help: 'Audit events recorded by this edge.',
      registers,
    });
    this.auditDrops = new Counter({
      name: 'ptyws_audit_dropped_total',
      help: 'Audit events dropped because a sink could not keep up (queue full).',
      registers,
    });
    this.auditFailures = new Counter({
      name: 'ptyws_audit_write_failures_total',
      help: 'Audit batch writes that failed (retried).',
      registers,
    });
    this.echo = new Histogram({
      name: 'ptyws_echo_latency_seconds',
      help: 'Input frame received by the edge → first Output frame of the same session published by it.',
      buckets: ECHO_BUCKETS,
      registers,
    });

    // ---- agent ---------------------------------------------------------------------------------
    new Gauge({
      name: 'ptyws_sessions',
      help: 'Sessions owned by this agent, by lifecycle state and backend.',
      labelNames: ['state', 'backend'] as const,
      registers,
      collect() {
        this.reset();
        // The common series is always present, so sums start at 0 rather than at "no data".
        const counts = new Map<string, { state: string; backend: string; n: number }>([
          ['running\u0000native', { state: 'running', backend: 'native', n: 0 }],
        ]);
        for (const source of self.sessionSources) {
          for (const s of source()) {
            const backend = boundedToken(s.backend);
            const key = `${s.state}\u0000${backend}`;
            const entry = counts.get(key);
            if (entry) entry.n++;
            else counts.set(key, { state: s.state, backend, n: 1 });
          }
        }
        for (const { state, backend, n } of counts.values()) this.set({ state, backend }, n);
      },
    });
    this.keyframes = new Counter({
      name: 'ptyws_keyframes_total',
      help: 'Terminal snapshots made: logged on the cadence, or on demand for one connection.',
      labelNames: ['trigger'] as const,
      registers,
    });
    this.mirrorParseErrorCounts = new Counter({
      name: 'ptyws_mirror_parse_errors_total',
      help: 'Session output the headless terminal (keyframes) could not parse: malformed = bytes skipped where they stood (DEL, binary dumps), as a terminal does; exception = chunks it threw on (the rest of the chunk is lost to keyframes).',
      labelNames: ['kind'] as const,
      registers,
    });
    for (const kind of MIRROR_PARSE_ERROR_KINDS) this.mirrorParseErrorCounts.inc({ kind }, 0);
    this.keyframeBytes = new Counter({
      name: 'ptyws_keyframe_bytes_total',
      help: 'Bytes of the snapshots counted by ptyws_keyframes_total.',
      labelNames: ['trigger'] as const,
      registers,
    });
    this.keyframeSeconds = new Histogram({
      name: 'ptyws_keyframe_seconds',
      help: 'Time to make a terminal snapshot.',
      labelNames: ['trigger'] as const,
      buckets: KEYFRAME_BUCKETS,
      registers,
    });
    for (const trigger of KEYFRAME_TRIGGERS) {
      this.keyframes.inc({ trigger }, 0);
      this.keyframeBytes.inc({ trigger }, 0);
    }
    this.archiveChunks = counter(
      'ptyws_transcript_chunks_written_total',
      'Transcript archive chunks written (file in single-node mode, Postgres in cluster mode).',
    );
    this.archiveBytes = counter(
      'ptyws_transcript_bytes_written_total',
      'Payload bytes of the archived frames (terminal output plus event JSON), before compression.',
    );
    this.archiveFailures = counter(
      'ptyws_transcript_write_failures_total',
      'Transcript archive chunk writes that failed (retried; unarchived frames stay in the replay log).',
    );
    this.archiveDroppedBytes = counter(
      'ptyws_transcript_dropped_bytes_total',
      'Compressed transcript archive bytes dropped, oldest first, to keep sessions within PTYWS_TRANSCRIPT_SESSION_BYTES / PTYWS_TRANSCRIPT_AGENT_BYTES.',
    );
    this.archiveDroppedFrames = counter(
      'ptyws_transcript_dropped_frames_total',
      'Frames in the transcript archive chunks dropped for the byte quotas.',
    );
    this.archiveLagFrames = new Gauge({
      name: 'ptyws_transcript_archive_lag_frames',
      help: 'Frames in the replay log that the transcript archive does not hold yet, over all sessions of this agent.',
      registers,
    });
    this.archiveLagFrames.set(0);
    this.outputHeldSessions = new Gauge({
      name: 'ptyws_output_held_sessions',
      help: 'Sessions whose PTY is not being read now, by reason: readers (most readers behind: output waits for them), mirror or archive (far behind the stream), log (the frame log unreachable and PTYWS_LOG_OUTAGE_BUFFER_BYTES waiting for it).',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of OUTPUT_HOLD_REASONS) this.outputHeldSessions.set({ reason }, 0);
    this.frameLogWaitingBytes = new Gauge({
      name: 'ptyws_frame_log_waiting_bytes',
      help: 'Output sequenced but not yet confirmed by the frame log, over all sessions of this agent (grows while the log is unreachable).',
      registers,
    });
    this.frameLogWaitingBytes.set(0);
    this.frameLogCuts = counter(
      'ptyws_frame_log_cuts_total',
      'Sessions ended with reason error because their frame log could not be written for PTYWS_LOG_OUTAGE_GIVE_UP_S.',
    );

    // ---- cluster adapters ----------------------------------------------------------------------
    this.natsLag = new Gauge({
      name: 'ptyws_nats_consumer_lag',
      help: 'Messages the JetStream consumers of this process are behind (0 in single-node mode).',
      registers,
    });
    this.natsLag.set(0);
    this.pgQuerySeconds = new Histogram({
      name: 'ptyws_pg_query_seconds',
      help: 'Postgres query latency by operation (cluster mode).',
      labelNames: ['operation'] as const,
      buckets: PG_BUCKETS,
      registers,
    });
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  // ---- edge ------------------------------------------------------------------------------------

  trackConnections(source: () => Iterable<ConnectionSample>): Untrack {
    this.connectionSources.add(source);
    return () => this.connectionSources.delete(source);
  }

  connectionOpened(binary: boolean): void {
    this.connectionsOpened.inc({ subprotocol: binary ? SUBPROTOCOL_BINARY_LABEL : SUBPROTOCOL_JSON_LABEL });
  }

  frameOut(kind: FrameKind, bytes: number, sockets: number): void {
    const i = KIND_INDEX[kind];
    this.framesOut[i]! += 1;
    this.bytesOut[i]! += bytes;
    this.socketFramesOut[i]! += sockets;
  }

  frameIn(format: WireFormat, bytes: number): void {
    const i = format === 'binary' ? 1 : 0;
    this.framesIn[i]! += 1;
    this.bytesIn[i]! += bytes;
  }

  replayRequested(): void {
    this.replayRequests.inc();
  }

  replayFramesServed(frames: number): void {
    if (frames > 0) this.replayFrames.inc(frames);
  }

  replayOutOfRange(): void {
    this.replayOutOfRanges.inc();
  }

  hotWindowMiss(): void {
    this.hotWindowMisses.inc();
  }

  lagSkip(): void {
    this.lagSkips.inc();
  }

  connectionReaped(): void {
    this.reaped.inc();
  }

  authFailure(reason: string): void {
    this.authFailures.inc({ reason: authFailureReasonOf(reason) });
  }

  rateLimited(limit: RateLimit): void {
    this.rateLimits.inc({ limit: (RATE_LIMITS as readonly string[]).includes(limit) ? limit : 'other' });
  }

  auditRecorded(): void {
    this.auditEvents.inc();
  }

  auditDropped(events: number): void {
    this.auditDrops.inc(events);
  }

  auditWriteFailed(): void {
    this.auditFailures.inc();
  }

  echoLatency(seconds: number): void {
    if (Number.isFinite(seconds) && seconds >= 0) this.echo.observe(seconds);
  }

  // ---- agent -----------------------------------------------------------------------------------

  trackSessions(source: () => Iterable<SessionSample>): Untrack {
    this.sessionSources.add(source);
    return () => this.sessionSources.delete(source);
  }

  keyframe(trigger: KeyframeTrigger, bytes: number, seconds: number): void {
    this.keyframes.inc({ trigger });
    this.keyframeBytes.inc({ trigger }, bytes);
    this.keyframeSeconds.observe({ trigger }, seconds);
  }

  mirrorParseErrors(kind: MirrorParseErrorKind, count: number): void {
    if (count > 0) this.mirrorParseErrorCounts.inc({ kind }, count);
  }

  outputHeld(reason: OutputHoldReason, delta: 1 | -1): void {
    this.outputHeldSessions.inc({ reason }, delta);
  }

  frameLogWaiting(delta: number): void {
    if (delta !== 0) this.frameLogWaitingBytes.inc(delta);
  }

  frameLogCut(): void {
    this.frameLogCuts.inc();
  }

  archiveChunkWritten(frames: number, bytes: number): void {
    if (frames <= 0) return;
    this.archiveChunks.inc();
    this.archiveBytes.inc(bytes);
  }

  archiveWriteFailed(): void {
    this.archiveFailures.inc();
  }

  archiveLag(delta: number): void {
    if (delta !== 0) this.archiveLagFrames.inc(delta);
  }

  archiveDropped(frames: number, bytes: number): void {
    this.archiveDroppedFrames.inc(frames);
    this.archiveDroppedBytes.inc(bytes);
  }

  // ---- cluster adapters ------------------------------------------------------------------------

  natsConsumerLag(messages: number): void {
    this.natsLag.set(messages);
  }

  pgQuery(operation: string, seconds: number): void {
    this.pgQuerySeconds.observe({ operation: boundedToken(operation) }, seconds);
  }
}
