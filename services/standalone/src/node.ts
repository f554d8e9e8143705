import type { Config } from '@pty-ws/config';
import type { Metrics } from '@pty-ws/telemetry';

/** A running single-node service (edge + agent in one process, embedded adapters). */
export interface RunningNode {
  config: Config;
  host: string;
  /** The port actually bound (config.port may be 0). */
  port: number;
  instanceId: string;
  /** The admin bearer token (PTYWS_ADMIN_TOKEN, or the one generated at start). */
  adminToken: string;
  /** http://host:port */
  httpUrl: string;
  /** ws://host:port */
  wsUrl: string;
  /** The gRPC server's port (A2A + admin services), unless PTYWS_GRPC_PORT=0. */
  grpcPort?: number;
  /** Edge and agent metrics of this node (served at GET /metrics on `port`). */
  metrics: Metrics;
  /** The agent metrics server's port, when PTYWS_AGENT_METRICS_PORT was set. */
  agentMetricsPort?: number;
  /** Graceful stop: binding_goodbye server_shutdown to every socket, kill PTYs, close the listener. */
  stop(): Promise<void>;
}
