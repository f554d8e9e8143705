/** @pty-ws/telemetry: Prometheus metrics (own registry per node), the JSON logger, the agent's metrics server. */
export { Metrics } from './metrics';
export type {
  AgentMetrics,
  AuditMetrics,
  ClusterMetrics,
  ConnectionSample,
  EdgeMetrics,
  MetricsExposition,
  MetricsOptions,
  SessionSample,
  TranscriptArchiveMetrics,
  Untrack,
} from './metric-types';
export * from './labels';
export { createLogger, isLogLevel, LOG_LEVELS, type Logger, type LoggerOptions, type LogLevel } from './logger';
export { startMetricsServer, type MetricsServerOptions, type RunningMetricsServer } from './metrics-server';
export {
  AGENT_SERVICE,
  EDGE_SERVICE,
  startTracing,
  tracingRequested,
  type Tracing,
  type TracingOptions,
} from './tracing';
export {
  SpanKind,
  contextFromHeaders,
  failSpan,
  globalTracer,
  inSpan,
  logTraceId,
  startRequestSpan,
  traceIdOf,
  type Context,
  type RequestSpanOptions,
  type Span,
  type Tracer,
} from './trace-context';
export { boundLogger, childLogger } from './child-logger';
export { pushNotificationMetrics, type PushNotificationMetrics } from './push-metrics';
