import type { Scope } from '@pty-ws/protocol';

/** The service's configuration, read from `PTYWS_*` variables by `loadConfig`. */
export interface Config {
  /** PTYWS_HOST, default 127.0.0.1 */
  host: string;
  /** PTYWS_PORT, default 8080; 0 picks a free port (tests). */
  port: number;
  /** PTYWS_GRPC_PORT, default PTYWS_PORT + 2 (0 when PTYWS_PORT=0): the edge's gRPC server (A2A + admin services); 0 disables it. */
  grpcPort: number;
  /** PTYWS_GRPC_HOST: where the gRPC server listens; default PTYWS_HOST. */
  grpcHost?: string;
  /** PTYWS_AGENT_METRICS_PORT, default 9464: the pty-agent's /metrics, /healthz, /readyz server. */
  agentMetricsPort: number;
  /** PTYWS_GRACE_PERIOD_S, default 25: how long a SIGTERM drain may take before the process exits anyway. */
  gracePeriodS: number;
  /** PTYWS_INSTANCE_ID, default `local` */
  instanceId: string;
  /** PTYWS_EDGE_ID, default `<hostname>-<pid>` */
  edgeId: string;
  /** PTYWS_AGENT_ID, default `<hostname>` */
  agentId: string;
  /** PTYWS_AUTH: `enabled` (default) or `disabled` (local harnesses only). */
  authEnabled: boolean;
  /** PTYWS_ADMIN_TOKEN: when unset a fresh one is generated and printed at start. */
  adminToken?: string;
  /** PTYWS_PING_INTERVAL_MS, default 30000 */
  pingIntervalMs: number;
  /** PTYWS_PONG_TIMEOUT_MS, default 90000 */
  pongTimeoutMs: number;
  /** PTYWS_REPLAY_FRAMES, default 1000 */
  replayFrames: number;
  /** PTYWS_REPLAY_RETENTION_S, default 86400 */
  replayRetentionS: number;
  /** PTYWS_LOG_MEMORY_BYTES, default 8388608 (single-node only) */
  logMemoryBytes: number;
  /** PTYWS_MAX_CONTROLLERS, default 4 */
  maxControllers: number;
  /** PTYWS_MAX_OBSERVERS, default 32 */
  maxObservers: number;
  /** PTYWS_OBSERVERS_PER_PRINCIPAL, default 8: observer slots of one session one principal may hold. */
  maxObserversPerPrincipal: number;
  /** PTYWS_KEYFRAME_INTERVAL_S, default 5 */
  keyframeIntervalS: number;
  /** PTYWS_KEYFRAME_INTERVAL_FRAMES, default 100 */
  keyframeIntervalFrames: number;
  /** PTYWS_DEFAULT_COLS / PTYWS_DEFAULT_ROWS, default 120 × 30 */
  defaultCols: number;
  defaultRows: number;
  /** PTYWS_MAX_FRAME_BYTES, default 1048576: largest inbound WebSocket message. */
  maxFrameBytes: number;
  /** PTYWS_WS_BUFFER_BUDGET, default 2 GiB: unfinished inbound messages an edge may buffer (socket admission). */
  wsBufferBudget: number;
  /** PTYWS_SHELL: default login shell when a session names no argv/command; default $SHELL or /bin/bash. */
  shell: string;
  /** PTYWS_OUTPUT_COALESCE_MS, default 5: how long PTY output may wait to be merged into one frame. */
  outputCoalesceMs: number;
  /** PTYWS_OUTPUT_FRAME_BYTES, default 262144: an Output frame is flushed once it reaches this size. */
  outputFrameBytes: number;
  /** PTYWS_MIRROR_THREAD, default main: where sessions parse output for keyframes (main or worker). */
  mirrorThread: 'main' | 'worker';
  /** PTYWS_MIRROR_SLEEP_S, default 10: an idle session's terminal mirror keeps only a keyframe (0: never). */
  mirrorSleepS: number;
  /** PTYWS_STREAM_RELAY, default on: a streaming session's pty is read by the stream relay process. */
  streamRelay: 'on' | 'off';
  /** PTYWS_SLOW_CONSUMER_BYTES, default 1048576: socket backlog past which an observer is skipped forward. */
  slowConsumerBytes: number;
  /** PTYWS_LOG_OUTAGE_BUFFER_BYTES, default 64 MiB: output a session keeps while its log cannot be written. */
  logOutageBufferBytes: number;
  /** PTYWS_LOG_OUTAGE_GIVE_UP_S, default 120: how long an unwritable log is retried before the session ends. */
  logOutageGiveUpS: number;
  /** PTYWS_TASK_TIMEOUT_S, default 600: a task's command is killed (FAILED) after this long. */
  taskTimeoutS: number;
  /** PTYWS_TASK_OUTPUT_BYTES, default 65536: task output kept as its artifact (its start and its end). */
  taskOutputBytes: number;
  /** PTYWS_TASK_INPUT_QUIET_MS, default 1000: quiet output while the command reads the terminal → INPUT_REQUIRED. */
  taskInputQuietMs: number;
  /** PTYWS_TASK_OUTPUT_HEAD_BYTES, default 8192: of taskOutputBytes, the bytes kept from the output's start. */
  taskOutputHeadBytes: number;
  /** PTYWS_PUSH_ATTEMPTS, default 8: tries per A2A push notification (the first included) before giving up. */
  pushAttempts: number;
  /** PTYWS_PUSH_BACKOFF_MS, default 500: wait before the first retry of a push notification; doubles per retry (cap 60 s). */
  pushBackoffMs: number;
  /** PTYWS_PUSH_TIMEOUT_MS, default 5000: one push notification POST (connect, send, status). */
  pushTimeoutMs: number;
  /** PTYWS_CONTEXT_SESSION_IDLE_S, default 900: a session created for an A2A context is closed once idle this long. */
  contextSessionIdleS: number;
  /** PTYWS_CLOSED_SESSION_TTL_S, default 86400: how long a closed session stays listed and replayable. */
  closedSessionTtlS: number;
  /** PTYWS_LOG_LEVEL: fatal|error|warn|info|debug|trace|silent, default info */
  logLevel: string;
  /** PTYWS_STATE_DIR: the agent's private multiplexer sockets and shell-integration files. */
  stateDir: string;
  /** PTYWS_TRANSCRIPT_DIR: single-node transcript archive directory; default `<stateDir>/pty-transcripts`. */
  transcriptDir?: string;
  /** PTYWS_TRANSCRIPT_SESSION_BYTES, default 256 MiB: compressed archive kept per session (oldest chunks dropped); 0: unlimited. */
  transcriptSessionBytes: number;
  /** PTYWS_TRANSCRIPT_AGENT_BYTES, default 2 GiB: compressed archive kept per agent over its sessions; 0: unlimited. */
  transcriptAgentBytes: number;
  /** PTYWS_ALLOW_ENV_OVERRIDE: protected variable names a session's `env` may set anyway; default none. */
  allowEnvOverride: string[];
  /** PTYWS_SESSION_ENV_ALLOW: when set, the only variables a session's `env` may set. */
  sessionEnvAllow?: string[];
  /** PTYWS_SESSION_USER: the unprivileged user (name or uid[:gid]) sessions run as; unset: the service's own. */
  sessionUser?: string;
  /** PTYWS_SESSION_MAX_PROCS, default 0 (not set): RLIMIT_NPROC of session programs. */
  sessionMaxProcs: number;
  /** PTYWS_SESSION_MAX_MEMORY_BYTES, default 0 (not set): RLIMIT_AS of session programs. */
  sessionMaxMemoryBytes: number;
  /** PTYWS_SESSION_MAX_FILE_BYTES, default 0 (not set): RLIMIT_FSIZE of session programs. */
  sessionMaxFileBytes: number;
  /** PTYWS_SESSION_MAX_OPEN_FILES, default 0 (not set): RLIMIT_NOFILE of session programs. */
  sessionMaxOpenFiles: number;
  /** PTYWS_NATS_URL: NATS servers (comma-separated); with PTYWS_DATABASE_URL selects cluster mode. */
  natsUrl?: string;
  /** PTYWS_DATABASE_URL: Postgres connection URL for sessions, tasks and token hashes (cluster mode). */
  databaseUrl?: string;
  /** PTYWS_NATS_PREFIX, default `ptyws`: subject prefix and stream/bucket name stem; isolates deployments. */
  natsPrefix: string;
  /** PTYWS_JETSTREAM_REPLICAS, default 1: replicas of every stream and KV bucket (3 on a 3-node NATS cluster). */
  jetstreamReplicas: number;
  /** PTYWS_DB_SCHEMA, default `ptyws`: Postgres schema holding the tables. */
  dbSchema: string;
  /** PTYWS_DEPENDENCY_TIMEOUT_MS, default 800: deadline of a request's NATS or Postgres calls (then 503). */
  dependencyTimeoutMs: number;
  /** PTYWS_CONN_RATE_PER_PRINCIPAL, default 30: new attach connections per second per principal. */
  connRatePerPrincipal: number;
  /** PTYWS_CONN_BURST_PER_PRINCIPAL, default 60: burst allowance of the per-principal connection bucket. */
  connBurstPerPrincipal: number;
  /** PTYWS_CONN_RATE_PER_INSTANCE, default 300: new attach connections per second per instance, on one edge. */
  connRatePerInstance: number;
  /** PTYWS_CONN_BURST_PER_INSTANCE, default 600 */
  connBurstPerInstance: number;
  /** PTYWS_API_RATE_PER_PRINCIPAL, default 200: control-plane requests (A2A, REST, gRPC) per second per principal. */
  apiRatePerPrincipal: number;
  /** PTYWS_API_BURST_PER_PRINCIPAL, default 400: burst allowance of the per-principal request bucket. */
  apiBurstPerPrincipal: number;
  /** PTYWS_FRAME_RATE_PER_CONN, default 2000: inbound WebSocket messages per second per connection. */
  frameRatePerConn: number;
  /** PTYWS_INPUT_BYTES_PER_CONN, default 4194304: PTY input bytes per second per connection. */
  inputBytesPerConn: number;
  /** PTYWS_MAX_HTTP_REQUESTS, default 1024: requests received but not yet answered; more get 503. */
  maxHttpRequests: number;
  /** PTYWS_MAX_SOCKETS, default 10000: open WebSockets per edge; further upgrades get 503. */
  maxSockets: number;
  /** PTYWS_TLS_CERT: PEM certificate (chain) file; with PTYWS_TLS_KEY the edge serves https/wss only. */
  tlsCert?: string;
  /** PTYWS_TLS_KEY: PEM private key file of PTYWS_TLS_CERT. */
  tlsKey?: string;
  /** PTYWS_ALLOW_INSECURE: 1 accepts plain http/ws/gRPC, 0 refuses it; unset: accepted only when bound to loopback. */
  allowInsecure?: boolean;
  /** PTYWS_ALLOWED_ORIGINS: browser origins allowed besides the same origin (`*`: any). */
  allowedOrigins: string[];
  /** PTYWS_PUSH_ALLOWED_HOSTS: host names/CIDRs push webhooks may reach though loopback/private. */
  pushAllowedHosts: string[];
  /** PTYWS_TRUSTED_PROXIES: CIDRs whose `X-Forwarded-Proto: https` marks a plain request as secure. */
  trustedProxies: string[];
  /** PTYWS_ALLOWED_HOSTS: Host header names allowed besides IP literals and localhost (`*`: any). */
  allowedHosts: string[];
  /** PTYWS_AUTH_FAILURE_RATE / _BURST, default 10/s, 100: refused tokens per client address. */
  authFailureRatePerS: number;
  authFailureBurst: number;
  /** PTYWS_TLS_CA: PEM CA bundle; with it every client must present a certificate it signed (mTLS). */
  tlsCa?: string;
  /** PTYWS_MTLS_SCOPES, default pty:observe: the scopes of a certificate principal (no bearer token). */
  mtlsScopes: Scope[];
  /** PTYWS_AUDIT_LOG: off|stdout|stderr|<absolute file>; default single-node `<stateDir>/audit.jsonl`, cluster Postgres only. */
  auditLog?: string;
  /** PTYWS_MAX_SESSIONS_PER_AGENT, default 256: running sessions one agent owns; more are refused (429). */
  maxSessionsPerAgent: number;
  /** PTYWS_MAX_SESSIONS_PER_INSTANCE, default 1024: running sessions of the instance across all agents. */
  maxSessionsPerInstance: number;
  /** PTYWS_MAX_CONNS_PER_PRINCIPAL, default 256: open attach connections per principal (cluster-wide). */
  maxConnsPerPrincipal: number;
  /** PTYWS_MAX_CONNS_PER_INSTANCE, default 20000: open attach connections per instance (cluster-wide). */
  maxConnsPerInstance: number;
  /** PTYWS_ABUSE_REFUSALS, default 100: rate-limit refusals in a row after which a connection is closed (4429). */
  abuseRefusals: number;
  /** PTYWS_ABUSE_REFUSALS_PER_S, default 10: sustained refusals per second after which it is closed. */
  abuseRefusalsPerS: number;
}
