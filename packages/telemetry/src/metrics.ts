import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AgentRecorders } from './agent-metrics';
import { EdgeRecorders } from './edge-metrics';
import { boundedToken, type FrameKind, type KeyframeTrigger, type MirrorParseErrorKind } from './labels';
import type { HelperFailureSite, OutputHoldReason, PtyReadPath, RateLimit, WireFormat } from './labels';
import type {
  AgentMetrics,
  AuditMetrics,
  ClusterMetrics,
  ConnectionSample,
  EdgeMetrics,
  MetricsExposition,
  MetricsOptions,
  SessionSample,
  Untrack,
} from './metric-types';

const PG_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The pty-ws metrics on a registry of their own (not prom-client's global one, so one process can
 * hold several nodes in tests). Names and labels are the deploy contract's
 * (tests/deploy/lib/contract.ts): the Prometheus rules and the Grafana dashboard select them.
 * The edge's series live in edge-metrics.ts, the agent's in agent-metrics.ts; this class is the
 * one object a node passes around, and registers them in that order.
 */
export class Metrics implements EdgeMetrics, AgentMetrics, ClusterMetrics, AuditMetrics, MetricsExposition {
  readonly registry: Registry;
  private readonly edge: EdgeRecorders;
  private readonly agent: AgentRecorders;
  private readonly natsLag: Gauge;
  private readonly pgQuerySeconds: Histogram<'operation'>;

  constructor(opts: MetricsOptions = {}) {
    const registry = new Registry();
    this.registry = registry;
    if (opts.labels) registry.setDefaultLabels(opts.labels);
    if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
    this.edge = new EdgeRecorders(registry);
    this.agent = new AgentRecorders(registry);
    const registers = [registry];
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
    return this.edge.trackConnections(source);
  }
  connectionOpened(binary: boolean): void {
    this.edge.connectionOpened(binary);
  }
  frameOut(kind: FrameKind, bytes: number, sockets: number): void {
    this.edge.frameOut(kind, bytes, sockets);
  }
  frameIn(format: WireFormat, bytes: number): void {
    this.edge.frameIn(format, bytes);
  }
  replayRequested(): void {
    this.edge.replayRequested();
  }
  replayFramesServed(frames: number): void {
    this.edge.replayFramesServed(frames);
  }
  replayOutOfRange(): void {
    this.edge.replayOutOfRange();
  }
  hotWindowMiss(): void {
    this.edge.hotWindowMiss();
  }
  lagSkip(): void {
    this.edge.lagSkip();
  }
  connectionReaped(): void {
    this.edge.connectionReaped();
  }
  authFailure(reason: string): void {
    this.edge.authFailure(reason);
  }
  rateLimited(limit: RateLimit): void {
    this.edge.rateLimited(limit);
  }
  auditRecorded(): void {
    this.edge.auditRecorded();
  }
  auditDropped(events: number): void {
    this.edge.auditDropped(events);
  }
  auditWriteFailed(): void {
    this.edge.auditWriteFailed();
  }
  echoLatency(seconds: number): void {
    this.edge.echoLatency(seconds);
  }

  // ---- agent -----------------------------------------------------------------------------------

  trackSessions(source: () => Iterable<SessionSample>): Untrack {
    return this.agent.trackSessions(source);
  }
  keyframe(trigger: KeyframeTrigger, bytes: number, seconds: number): void {
    this.agent.keyframe(trigger, bytes, seconds);
  }
  mirrorParseErrors(kind: MirrorParseErrorKind, count: number): void {
    this.agent.mirrorParseErrors(kind, count);
  }
  outputHeld(reason: OutputHoldReason, delta: 1 | -1): void {
    this.agent.outputHeld(reason, delta);
  }
  frameLogWaiting(delta: number): void {
    this.agent.frameLogWaiting(delta);
  }
  ptyReadPath(path: PtyReadPath, delta: 1 | -1): void {
    this.agent.ptyReadPath(path, delta);
  }
  helperFailure(where: HelperFailureSite): void {
    this.agent.helperFailure(where);
  }
  frameLogCut(): void {
    this.agent.frameLogCut();
  }
  archiveChunkWritten(frames: number, bytes: number): void {
    this.agent.archiveChunkWritten(frames, bytes);
  }
  archiveWriteFailed(): void {
    this.agent.archiveWriteFailed();
  }
  archiveLag(delta: number): void {
    this.agent.archiveLag(delta);
  }
  archiveDropped(frames: number, bytes: number): void {
    this.agent.archiveDropped(frames, bytes);
  }

  // ---- cluster adapters ------------------------------------------------------------------------

  natsConsumerLag(messages: number): void {
    this.natsLag.set(messages);
  }

  pgQuery(operation: string, seconds: number): void {
    this.pgQuerySeconds.observe({ operation: boundedToken(operation) }, seconds);
  }
}
