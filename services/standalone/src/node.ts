import type { Config } from '@pty-ws/config';

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
  /** Graceful stop: binding_goodbye server_shutdown to every socket, kill PTYs, close the listener. */
  stop(): Promise<void>;
}
