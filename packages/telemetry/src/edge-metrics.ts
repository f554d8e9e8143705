import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import {
  AUTH_FAILURE_REASONS,
  CONNECTION_ROLES,
  FRAME_KINDS,
  RATE_LIMITS,
  SUBPROTOCOLS,
  SUBPROTOCOL_BINARY_LABEL,
  SUBPROTOCOL_JSON_LABEL,
  WIRE_FORMATS,
  authFailureReasonOf,
  connectionRoleOf,
  type FrameKind,
  type RateLimit,
  type WireFormat,
} from './labels';
import type { AuditMetrics, ConnectionSample, EdgeMetrics, Untrack } from './metric-types';

const ECHO_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const KIND_INDEX: Readonly<Record<FrameKind, number>> = Object.fromEntries(FRAME_KINDS.map((k, i) => [k, i])) as Record<
  FrameKind,
  number
>;

/**
 * The edge's series (HTTP/WebSocket front and audit trail) on the node's registry. Hot-path
 * recorders (frames and bytes in/out) only add to plain numbers; the counters read them at scrape
 * time, so a published frame costs a few additions and no allocation.
 */
export class EdgeRecorders implements EdgeMetrics, AuditMetrics {
  private readonly connectionSources = new Set<() => Iterable<ConnectionSample>>();

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

  constructor(registry: Registry) {
    const registers = [registry];
    // Collect callbacks are plain functions over `self`: prom-client calls them with the metric as `this`.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;

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
  }

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
}
