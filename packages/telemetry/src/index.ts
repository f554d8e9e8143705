/** @pty-ws/telemetry: Prometheus metrics (own registry per node), the JSON logger, the agent's metrics server. */
export {
  Metrics,
  type AgentMetrics,
  type ClusterMetrics,
  type ConnectionSample,
  type EdgeMetrics,
  type MetricsExposition,
  type MetricsOptions,
  type SessionSample,
  type Untrack,
} from './metrics';
export * from './labels';
export { createLogger, isLogLevel, LOG_LEVELS, type Logger, type LoggerOptions, type LogLevel } from './logger';
export { startMetricsServer, type RunningMetricsServer } from './metrics-server';
