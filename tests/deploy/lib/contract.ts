/**
 * The operations contract the deploy artifacts are written against. The service code is the
 * source of truth: tests/observability/contract.test.ts cross-checks these lists against its
 * configuration table and metrics registry (see deploy/README.md, "What is validated, and how").
 */

/** Every environment variable the deploy artifacts may set for edge/agent containers. */
export const KNOWN_ENV = [
  'PTYWS_PORT',
  'PTYWS_GRPC_PORT',
  'PTYWS_HOST',
  'PTYWS_AGENT_METRICS_PORT',
  'PTYWS_NATS_URL',
  'PTYWS_JETSTREAM_REPLICAS',
  'PTYWS_DATABASE_URL',
  'PTYWS_INSTANCE_ID',
  'PTYWS_EDGE_ID',
  'PTYWS_AGENT_ID',
  'PTYWS_ADMIN_TOKEN',
  'PTYWS_TLS_CERT',
  'PTYWS_TLS_KEY',
  'PTYWS_TLS_CA',
  'PTYWS_ALLOW_INSECURE',
  'PTYWS_TRUSTED_PROXIES',
  'PTYWS_LOG_LEVEL',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_TRACES_EXPORTER',
  'PTYWS_GRACE_PERIOD_S',
  'PTYWS_SESSION_USER',
  'PTYWS_STATE_DIR',
  'PTYWS_ADMIN_TOKEN_FILE',
  'PTYWS_DATABASE_URL_FILE',
  'PTYWS_NATS_URL_FILE',
] as const;

/** Variables that carry secrets: never a literal in a manifest, always from a Secret / the shell. */
export const SECRET_ENV = ['PTYWS_ADMIN_TOKEN', 'PTYWS_DATABASE_URL', 'PTYWS_NATS_URL'] as const;

export const DEFAULTS = {
  edgePort: 8080,
  /** The gRPC port of an edge on the default PTYWS_PORT; in general PTYWS_PORT + edgeGrpcPortOffset. */
  edgeGrpcPort: 8082,
  edgeGrpcPortOffset: 2,
  agentMetricsPort: 9464,
  natsClientPort: 4222,
  postgresPort: 5432,
  gracePeriodS: 25,
} as const;

/** An edge's gRPC port when PTYWS_GRPC_PORT is unset: PTYWS_PORT + 2 (two edges on one host never share it). */
export function defaultEdgeGrpcPort(edgePort: string | number | undefined): number {
  return Number(edgePort ?? DEFAULTS.edgePort) + DEFAULTS.edgeGrpcPortOffset;
}

/** Metrics the services export (prom-client), by type. */
export const METRICS: Record<string, 'counter' | 'gauge' | 'histogram'> = {
  ptyws_connections: 'gauge',
  ptyws_sessions: 'gauge',
  ptyws_frames_out_total: 'counter',
  ptyws_bytes_out_total: 'counter',
  ptyws_replay_requests_total: 'counter',
  ptyws_replay_out_of_range_total: 'counter',
  ptyws_output_lag_skips_total: 'counter',
  ptyws_reaped_connections_total: 'counter',
  ptyws_auth_failures_total: 'counter',
  ptyws_rate_limited_total: 'counter',
  ptyws_nats_consumer_lag: 'gauge',
  ptyws_echo_latency_seconds: 'histogram',
  ptyws_keyframes_total: 'counter',
  ptyws_transcript_chunks_written_total: 'counter',
  ptyws_transcript_bytes_written_total: 'counter',
  ptyws_transcript_write_failures_total: 'counter',
  ptyws_transcript_archive_lag_frames: 'gauge',
  ptyws_output_held_sessions: 'gauge',
  ptyws_frame_log_waiting_bytes: 'gauge',
  ptyws_frame_log_cuts_total: 'counter',
  ptyws_pty_read_path: 'gauge',
  ptyws_helper_failures_total: 'counter',
};

/** Label names each metric carries (beyond job/instance), as far as the contract says. */
export const METRIC_LABELS: Record<string, readonly string[]> = {
  ptyws_connections: ['role', 'subprotocol'],
  ptyws_sessions: ['state', 'backend'],
  ptyws_frames_out_total: ['kind'],
  ptyws_bytes_out_total: ['kind'],
  ptyws_auth_failures_total: ['reason'],
  ptyws_pty_read_path: ['path'],
  ptyws_helper_failures_total: ['where'],
};

/** Series names a PromQL expression may select: the contract's, with histogram suffixes. */
export function isKnownSeries(name: string, recorded: ReadonlySet<string>): boolean {
  if (recorded.has(name)) return true;
  if (name === 'up') return true;
  // prom-client collectDefaultMetrics(): process_* and nodejs_* families.
  if (/^(process|nodejs)_[a-z0-9_]+$/.test(name)) return true;
  if (METRICS[name] && METRICS[name] !== 'histogram') return true;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  return !!m && METRICS[m[1]!] === 'histogram';
}

export const EDGE_ENTRY = 'services/edge/dist/main.js';
export const AGENT_ENTRY = 'services/pty-agent/dist/main.js';
