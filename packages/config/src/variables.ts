import { MAX_DIMENSION, MIN_COLS, MIN_ROWS } from '@pty-ws/protocol';
import type { Config } from './config';
import {
  AGENT_METRICS_SPARE_PORTS,
  DEFAULT_AGENT_METRICS_PORT,
  DEFAULT_HTTP_PORT,
  defaultAgentId,
  defaultEdgeId,
  defaultGrpcPort,
  defaultShell,
  defaultStateDir,
} from './defaults';
import {
  absolutePath,
  cidrList,
  envNameList,
  host,
  identifier,
  integer,
  MAX_TIMER_MS,
  MAX_TIMER_S,
  oneOf,
  natsUrls,
  postgresUrl,
  secretToken,
  sessionUser,
  sqlIdentifier,
  subjectPrefix,
  stateDirectory,
  toggle,
  type Rule,
} from './rules';
import { allowedHostList, auditTarget, hostList, originList, scopeList } from './security-rules';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One configuration variable as documented (the README table is generated from these). */
export interface ConfigVariable {
  name: string;
  field: keyof Config;
  /** The default as text for people; dynamic defaults are described (`<hostname>-<pid>`). */
  default: string;
  description: string;
}

interface VariableSpec<K extends keyof Config> {
  name: string;
  default: string;
  description: string;
  rule: Rule<NonNullable<Config[K]>>;
  /** For defaults that are not the parsed `default` text (machine-dependent or absent). */
  defaultValue?: (env: NodeJS.ProcessEnv) => Config[K];
  /** Never echoed in problems. */
  secret?: boolean;
  /**
   * `<name>_FILE` may name a file holding the value instead: a secret read from a file never sits in
   * a process's initial environment (/proc/<pid>/environ), which cannot be cleared after start.
   */
  fromFile?: boolean;
}

/** Keyed by field so the compiler insists every Config field has exactly one variable. */
type SpecTable = { [K in keyof Config]-?: VariableSpec<K> };

const MAX_RETENTION_S = 10 * 365 * 86_400;
const MIB = 1024 * 1024;

const SPECS: SpecTable = {
  host: {
    name: 'PTYWS_HOST',
    default: '127.0.0.1',
    description: 'Address the HTTP/WebSocket server listens on.',
    rule: host(),
  },
  port: {
    name: 'PTYWS_PORT',
    default: String(DEFAULT_HTTP_PORT),
    description:
      'TCP port to listen on, alone: a port another process listens on stops the start (`cannot listen on host:port`); 0 picks a free port (tests).',
    rule: integer(0, 65_535),
  },
  grpcPort: {
    name: 'PTYWS_GRPC_PORT',
    default: '$PTYWS_PORT + 2',
    description:
      'Port of the edge gRPC server (A2A `lf.a2a.v1.A2AService` and `ptyws.admin.v1.AdminService`, TLS when PTYWS_TLS_CERT/KEY are set); 0 disables it. Unset: PTYWS_PORT + 2, so edges on adjacent ports never clash; off while PTYWS_PORT=0 (tests).',
    rule: integer(0, 65_535),
    defaultValue: defaultGrpcPort,
  },
  grpcHost: {
    name: 'PTYWS_GRPC_HOST',
    default: '$PTYWS_HOST',
    description: 'Address the gRPC server listens on.',
    rule: host(),
    defaultValue: () => undefined,
  },
  agentMetricsPort: {
    name: 'PTYWS_AGENT_METRICS_PORT',
    default: String(DEFAULT_AGENT_METRICS_PORT),
    description: `Port of the pty-agent's \`/metrics\`, \`/healthz\`, \`/readyz\` server; single-node mode opens it only when set. Unset and taken (a second agent on the host): the next free port up to ${DEFAULT_AGENT_METRICS_PORT + AGENT_METRICS_SPARE_PORTS}, printed at start.`,
    rule: integer(0, 65_535),
  },
  gracePeriodS: {
    name: 'PTYWS_GRACE_PERIOD_S',
    default: '25',
    description: 'On SIGTERM: goodbye to every socket, end the sessions, exit; forced exit after this many seconds.',
    rule: integer(1, 3_600),
  },
  instanceId: {
    name: 'PTYWS_INSTANCE_ID',
    default: 'local',
    description: 'Instance (tenant) this deployment serves; scopes sessions, tasks and tokens.',
    rule: identifier(),
  },
  edgeId: {
    name: 'PTYWS_EDGE_ID',
    default: '<hostname>-<pid>',
    description: 'Identity of this edge node; its death releases the roles of its connections.',
    rule: identifier(),
    defaultValue: defaultEdgeId,
  },
  agentId: {
    name: 'PTYWS_AGENT_ID',
    default: '<hostname>',
    description: 'Identity of this PTY agent; sessions are owned by an agent.',
    rule: identifier(),
    defaultValue: defaultAgentId,
  },
  authEnabled: {
    name: 'PTYWS_AUTH',
    default: 'enabled',
    description: '`enabled` or `disabled`; disable only for local test harnesses.',
    rule: toggle('enabled', 'disabled'),
  },
  natsUrl: {
    name: 'PTYWS_NATS_URL',
    default: '(unset: single-node mode)',
    description:
      'NATS servers with JetStream, comma-separated (every node of a NATS cluster); together with PTYWS_DATABASE_URL it selects cluster mode. Credentials in it (`nats://user:pass@…`): prefer PTYWS_NATS_URL_FILE, a file holding the URL.',
    rule: natsUrls(),
    defaultValue: () => undefined,
    secret: true,
    fromFile: true,
  },
  databaseUrl: {
    name: 'PTYWS_DATABASE_URL',
    default: '(unset: single-node mode)',
    description:
      'Postgres URL for sessions, tasks and token hashes (cluster mode); migrations run at start. Or PTYWS_DATABASE_URL_FILE: a file holding it (recommended).',
    rule: postgresUrl(),
    defaultValue: () => undefined,
    secret: true,
    fromFile: true,
  },
  natsPrefix: {
    name: 'PTYWS_NATS_PREFIX',
    default: 'ptyws',
    description: 'NATS subject prefix and stream/bucket name stem; separates deployments sharing one NATS.',
    rule: subjectPrefix(),
  },
  jetstreamReplicas: {
    name: 'PTYWS_JETSTREAM_REPLICAS',
    default: '1',
    description:
      'Replicas of every JetStream stream and KV bucket pty-ws creates; more than 1 needs a NATS cluster (3 survives a node loss).',
    rule: integer(1, 5),
  },
  dbSchema: {
    name: 'PTYWS_DB_SCHEMA',
    default: 'ptyws',
    description: 'Postgres schema that holds the pty-ws tables.',
    rule: sqlIdentifier(),
  },
  dependencyTimeoutMs: {
    name: 'PTYWS_DEPENDENCY_TIMEOUT_MS',
    default: '800',
    description:
      'Deadline of each NATS or Postgres call a request waits on; past it, or with the server unreachable, the request gets 503 with Retry-After.',
    rule: integer(50, 60_000),
  },
  adminToken: {
    name: 'PTYWS_ADMIN_TOKEN',
    default: '(generated at start)',
    description:
      'Bootstrap admin bearer token; when unset a fresh one is generated and printed at start. Or PTYWS_ADMIN_TOKEN_FILE: a file holding it (recommended).',
    rule: secretToken(),
    defaultValue: () => undefined,
    secret: true,
    fromFile: true,
  },
  pingIntervalMs: {
    name: 'PTYWS_PING_INTERVAL_MS',
    default: '30000',
    description: 'How often the server pings each WebSocket.',
    rule: integer(10, MAX_TIMER_MS),
  },
  pongTimeoutMs: {
    name: 'PTYWS_PONG_TIMEOUT_MS',
    default: '90000',
    description: 'A connection silent for this long is closed; must exceed the ping interval.',
    rule: integer(11, MAX_TIMER_MS),
  },
  replayFrames: {
    name: 'PTYWS_REPLAY_FRAMES',
    default: '1000',
    description: 'Replay keeps at least the last this many frames per session (`replay_buffer_frames`).',
    rule: integer(1, 10_000_000),
  },
  replayRetentionS: {
    name: 'PTYWS_REPLAY_RETENTION_S',
    default: '86400',
    description:
      'Replay also keeps every frame younger than this (`replay_buffer_retention_seconds`); the larger window wins.',
    rule: integer(0, MAX_RETENTION_S),
  },
  logMemoryBytes: {
    name: 'PTYWS_LOG_MEMORY_BYTES',
    default: '8388608',
    description:
      'Single-node: archived output a session keeps in memory for replay; older frames are read back from its transcript files.',
    rule: integer(64 * 1024, 1024 * MIB),
  },
  maxControllers: {
    name: 'PTYWS_MAX_CONTROLLERS',
    default: '4',
    description: 'Simultaneous controllers per session; further requests are downgraded to observer.',
    rule: integer(1, 64),
  },
  maxObservers: {
    name: 'PTYWS_MAX_OBSERVERS',
    default: '32',
    description: 'Simultaneous observers per session; further joins are refused.',
    rule: integer(1, 10_000),
  },
  maxObserversPerPrincipal: {
    name: 'PTYWS_OBSERVERS_PER_PRINCIPAL',
    default: '8',
    description:
      'Observer slots of one session one principal (token, certificate) may hold at once; further joins by it are refused, so one token cannot take every slot (capped by PTYWS_MAX_OBSERVERS).',
    rule: integer(1, 10_000),
  },
  keyframeIntervalS: {
    name: 'PTYWS_KEYFRAME_INTERVAL_S',
    default: '5',
    description: 'A Keyframe at least this often during active output.',
    rule: integer(1, 3_600),
  },
  keyframeIntervalFrames: {
    name: 'PTYWS_KEYFRAME_INTERVAL_FRAMES',
    default: '100',
    description: 'A Keyframe after this many Output frames since the last one.',
    rule: integer(1, 1_000_000),
  },
  defaultCols: {
    name: 'PTYWS_DEFAULT_COLS',
    default: '120',
    description: 'Terminal width of a session created without a size.',
    rule: integer(MIN_COLS, MAX_DIMENSION),
  },
  defaultRows: {
    name: 'PTYWS_DEFAULT_ROWS',
    default: '30',
    description: 'Terminal height of a session created without a size.',
    rule: integer(MIN_ROWS, MAX_DIMENSION),
  },
  maxFrameBytes: {
    name: 'PTYWS_MAX_FRAME_BYTES',
    // 128 KiB: each socket may hold this (+ 64 KiB) of an unfinished message, and the edge admits
    // only as many sockets as PTYWS_WS_BUFFER_BUDGET covers at that size; at 1 MiB the default
    // budget admitted ~1,900 sockets, at 128 KiB ~10,900 (above PTYWS_MAX_SOCKETS). The SDK sends
    // larger input as several frames.
    default: '131072',
    description:
      'Largest inbound WebSocket message; a larger one gets Error `INVALID_REQUEST` and close 1009 (SECURITY.md). Larger input goes as several input frames (the SDK splits it).',
    rule: integer(1024, 64 * MIB),
  },
  wsBufferBudget: {
    name: 'PTYWS_WS_BUFFER_BUDGET',
    default: '2147483648',
    description:
      'Bytes of unfinished inbound WebSocket messages an edge may hold: it admits at most this ÷ (PTYWS_MAX_FRAME_BYTES + 64 KiB) WebSockets (~10,900 at the defaults), fewer than PTYWS_MAX_SOCKETS when frames are large (SECURITY.md).',
    rule: integer(MIB, 1024 * 1024 * MIB),
  },
  shell: {
    name: 'PTYWS_SHELL',
    default: '$SHELL or /bin/bash',
    description: 'Login shell for sessions that name no argv/command; an absolute path.',
    rule: absolutePath(),
    defaultValue: defaultShell,
  },
  outputCoalesceMs: {
    name: 'PTYWS_OUTPUT_COALESCE_MS',
    default: '5',
    description:
      'Upper bound on how long streaming PTY output may wait to be merged into one Output frame (output after a quiet period is sent at once).',
    rule: integer(0, 1_000),
  },
  outputFrameBytes: {
    name: 'PTYWS_OUTPUT_FRAME_BYTES',
    // 256 KiB: a frame's fixed costs (log entry, keyframe cadence, hub, publish, in cluster mode
    // a JetStream append and its delivery) are paid per frame, and 5 ms of a `cat` at today's
    // ~50 MB/s fills about this much (128 KiB cut most frames in two; ARCHITECTURE has the figures).
    default: '262144',
    description:
      'An Output frame is flushed once it reaches this size. Unset: 262144, or PTYWS_SLOW_CONSUMER_BYTES when that is smaller.',
    rule: integer(64, 16 * MIB),
  },
  mirrorThread: {
    name: 'PTYWS_MIRROR_THREAD',
    default: 'main',
    description:
      'Where sessions parse output for keyframes: main (the event loop) or worker (one thread per agent: faster streams, more memory under a flood).',
    rule: oneOf(['main', 'worker'] as const),
  },
  mirrorSleepS: {
    name: 'PTYWS_MIRROR_SLEEP_S',
    // An idle session's headless terminal is most of what it costs its agent (~200 KB of the
    // ~230 measured per idle session); a keyframe of its screen is a few KB.
    default: '10',
    description:
      "Seconds without output or screen reads after which a session's terminal mirror keeps only a keyframe of its screen and lets go of the emulator (rebuilt on the next output or read); 0: never.",
    rule: integer(0, 86_400),
  },
  streamRelay: {
    name: 'PTYWS_STREAM_RELAY',
    default: 'on',
    description:
      'on: while a session streams to at most one reader (256 KiB within 50 ms), a small process (`stream-relay`, built when a C compiler is present) reads its pty so the tty drains while the agent sends; off: the event loop reads every pty.',
    rule: oneOf(['on', 'off'] as const),
  },
  slowConsumerBytes: {
    name: 'PTYWS_SLOW_CONSUMER_BYTES',
    default: '1048576',
    description:
      'Socket backlog past which an observer is skipped forward (`PTY_OUTPUT_LAGGED`); while most readers of a session have half of it waiting, the PTY is not read (output waits for them).',
    rule: integer(1024, 1024 * MIB),
  },
  logOutageBufferBytes: {
    name: 'PTYWS_LOG_OUTAGE_BUFFER_BYTES',
    default: '67108864',
    description:
      "While a session's frame log cannot be written, the agent keeps up to this much of its output and appends it once the log is back; past it the PTY is not read (the program waits, as on a slow terminal).",
    rule: integer(64 * 1024, 4096 * MIB),
  },
  logOutageGiveUpS: {
    name: 'PTYWS_LOG_OUTAGE_GIVE_UP_S',
    default: '120',
    description:
      'How long appends to an unreachable frame log are retried before the agent ends the session: it closes with reason `error`, and its clients get an Error and `Closed`.',
    rule: integer(1, MAX_TIMER_S),
  },
  taskTimeoutS: {
    name: 'PTYWS_TASK_TIMEOUT_S',
    default: '600',
    description: "A task's command is killed (FAILED) after this long.",
    rule: integer(1, MAX_TIMER_S),
  },
  taskOutputBytes: {
    name: 'PTYWS_TASK_OUTPUT_BYTES',
    default: '65536',
    description:
      "Task output kept as its artifact: its start (PTYWS_TASK_OUTPUT_HEAD_BYTES) and its end; what lies between is left out, counted in the artifact's metadata with the transcript range that holds it (live_shell).",
    rule: integer(1, 64 * MIB),
  },
  taskInputQuietMs: {
    name: 'PTYWS_TASK_INPUT_QUIET_MS',
    default: '1000',
    description:
      'A live_shell task whose output has been quiet this long while its command reads the terminal becomes INPUT_REQUIRED.',
    rule: integer(50, 600_000),
  },
  taskOutputHeadBytes: {
    name: 'PTYWS_TASK_OUTPUT_HEAD_BYTES',
    default: '8192',
    description:
      'Of PTYWS_TASK_OUTPUT_BYTES, the bytes a task artifact keeps from the start of the output; the rest is its end.',
    rule: integer(0, 64 * MIB),
  },
  pushAttempts: {
    name: 'PTYWS_PUSH_ATTEMPTS',
    default: '8',
    description: 'Tries per A2A push notification (webhook POST), the first included, before it is given up.',
    rule: integer(1, 100),
  },
  pushBackoffMs: {
    name: 'PTYWS_PUSH_BACKOFF_MS',
    default: '500',
    description: 'Wait before the first retry of a push notification; doubles per retry, capped at 60 s.',
    rule: integer(1, MAX_TIMER_MS),
  },
  pushTimeoutMs: {
    name: 'PTYWS_PUSH_TIMEOUT_MS',
    default: '5000',
    description: 'Time limit of one push notification POST (connect, send, response status).',
    rule: integer(1, MAX_TIMER_MS),
  },
  closedSessionTtlS: {
    name: 'PTYWS_CLOSED_SESSION_TTL_S',
    default: '86400',
    description: 'How long a closed session stays listed and replayable.',
    rule: integer(0, MAX_RETENTION_S),
  },
  logLevel: {
    name: 'PTYWS_LOG_LEVEL',
    default: 'info',
    description: `Log level: ${LOG_LEVELS.join('|')}.`,
    rule: oneOf(LOG_LEVELS),
  },
  stateDir: {
    name: 'PTYWS_STATE_DIR',
    default: '$HOME/.local/state/pty-ws or /tmp/pty-ws-<uid>',
    description:
      "The agent's private directory: tmux/screen sockets (per agent id) and shell-integration files; restarted agents find their sessions here.",
    rule: stateDirectory(),
    defaultValue: defaultStateDir,
  },
  transcriptDir: {
    name: 'PTYWS_TRANSCRIPT_DIR',
    default: '$PTYWS_STATE_DIR/pty-transcripts',
    description:
      'Single-node mode: where the transcript archive (frames evicted from replay, compressed chunks per session) is kept; cluster mode uses Postgres.',
    rule: absolutePath(),
    defaultValue: () => undefined,
  },
  transcriptSessionBytes: {
    name: 'PTYWS_TRANSCRIPT_SESSION_BYTES',
    default: '268435456',
    description:
      'Compressed transcript archive a session may keep; past it its oldest chunks are dropped (`ptyws_transcript_dropped_bytes_total`, a `transcript_trimmed` log line); 0: no limit.',
    rule: integer(0, Number.MAX_SAFE_INTEGER),
  },
  transcriptAgentBytes: {
    name: 'PTYWS_TRANSCRIPT_AGENT_BYTES',
    default: '2147483648',
    description:
      "Compressed transcript archive an agent's sessions may keep together; past it the writing session's oldest chunks are dropped; 0: no limit.",
    rule: integer(0, Number.MAX_SAFE_INTEGER),
  },
  allowEnvOverride: {
    name: 'PTYWS_ALLOW_ENV_OVERRIDE',
    default: '(none)',
    description:
      "Comma-separated protected variables (LD_PRELOAD, BASH_ENV, …) that a session's `env` may set anyway; empty: none.",
    rule: envNameList(),
    defaultValue: () => [],
  },
  sessionEnvAllow: {
    name: 'PTYWS_SESSION_ENV_ALLOW',
    default: '(unset: any name not protected)',
    description:
      "Allowlist mode: comma-separated variables a session's `env` may set (protected ones still need PTYWS_ALLOW_ENV_OVERRIDE); any other name is refused.",
    rule: envNameList(),
    defaultValue: () => undefined,
  },
  sessionUser: {
    name: 'PTYWS_SESSION_USER',
    default: "(unset: the service's own user)",
    description:
      "The unprivileged user (name or `uid[:gid]`) sessions' programs and tasks run as; needs an agent running as root or with CAP_SETUID/CAP_SETGID. Unset: a `pty:control` token acts as the service's own user (SECURITY.md).",
    rule: sessionUser(),
    defaultValue: () => undefined,
  },
  sessionMaxProcs: {
    name: 'PTYWS_SESSION_MAX_PROCS',
    default: '0',
    description:
      "RLIMIT_NPROC of session programs (via `prlimit`): processes and threads of the session's real uid on the whole host, so useful only when sessions run as their own user; 0: not set.",
    rule: integer(0, 4_194_304),
  },
  sessionMaxMemoryBytes: {
    name: 'PTYWS_SESSION_MAX_MEMORY_BYTES',
    default: '0',
    description: 'RLIMIT_AS (address space) of each session process, in bytes (via `prlimit`); 0: not set.',
    rule: integer(0, Number.MAX_SAFE_INTEGER),
  },
  sessionMaxFileBytes: {
    name: 'PTYWS_SESSION_MAX_FILE_BYTES',
    default: '0',
    description: 'RLIMIT_FSIZE (largest file written) of session processes, in bytes (via `prlimit`); 0: not set.',
    rule: integer(0, Number.MAX_SAFE_INTEGER),
  },
  sessionMaxOpenFiles: {
    name: 'PTYWS_SESSION_MAX_OPEN_FILES',
    default: '0',
    description: 'RLIMIT_NOFILE of session processes (via `prlimit`); 0: not set.',
    rule: integer(0, 1_048_576),
  },
  connRatePerPrincipal: {
    name: 'PTYWS_CONN_RATE_PER_PRINCIPAL',
    default: '30',
    description:
      'New attach connections per second per principal (token); over it the upgrade gets 429 `RATE_LIMITED`.',
    rule: integer(1, 1_000_000),
  },
  connBurstPerPrincipal: {
    name: 'PTYWS_CONN_BURST_PER_PRINCIPAL',
    default: '60',
    description: 'Connections a principal may open at once before PTYWS_CONN_RATE_PER_PRINCIPAL applies.',
    rule: integer(1, 1_000_000),
  },
  connRatePerInstance: {
    name: 'PTYWS_CONN_RATE_PER_INSTANCE',
    default: '300',
    description: 'New attach connections per second per instance on one edge; over it the upgrade gets 429.',
    rule: integer(1, 1_000_000),
  },
  connBurstPerInstance: {
    name: 'PTYWS_CONN_BURST_PER_INSTANCE',
    default: '600',
    description: 'Connections an instance may open at once before PTYWS_CONN_RATE_PER_INSTANCE applies.',
    rule: integer(1, 1_000_000),
  },
  apiRatePerPrincipal: {
    name: 'PTYWS_API_RATE_PER_PRINCIPAL',
    default: '200',
    description:
      'Control-plane requests (A2A HTTP+JSON, JSON-RPC, gRPC; REST API) per second per principal, apart from attach upgrades; over it 429 `RATE_LIMITED`.',
    rule: integer(1, 1_000_000),
  },
  apiBurstPerPrincipal: {
    name: 'PTYWS_API_BURST_PER_PRINCIPAL',
    default: '400',
    description: 'Requests a principal may make at once before PTYWS_API_RATE_PER_PRINCIPAL applies.',
    rule: integer(1, 1_000_000),
  },
  frameRatePerConn: {
    name: 'PTYWS_FRAME_RATE_PER_CONN',
    default: '2000',
    description:
      'Inbound frames per second per connection; extra frames get an Error `RATE_LIMITED`, a sustained flood is closed with 4429.',
    rule: integer(1, 1_000_000),
  },
  inputBytesPerConn: {
    name: 'PTYWS_INPUT_BYTES_PER_CONN',
    default: '4194304',
    description: 'PTY input bytes per second per connection (JSON and `PW1I`); over it the input frame is refused.',
    rule: integer(1024, 1024 * MIB),
  },
  maxHttpRequests: {
    name: 'PTYWS_MAX_HTTP_REQUESTS',
    default: '1024',
    description:
      'HTTP requests (and upgrades) an edge holds received but not yet answered; further ones get 503 at once (streams count until their first byte).',
    rule: integer(1, 10_000_000),
  },
  maxSockets: {
    name: 'PTYWS_MAX_SOCKETS',
    default: '10000',
    description: 'Open WebSockets per edge; further upgrades get 503.',
    rule: integer(1, 10_000_000),
  },
  tlsCert: {
    name: 'PTYWS_TLS_CERT',
    default: '(unset: plain http/ws)',
    description: 'PEM certificate chain file; with PTYWS_TLS_KEY the port serves https and wss only.',
    rule: absolutePath(),
    defaultValue: () => undefined,
  },
  tlsKey: {
    name: 'PTYWS_TLS_KEY',
    default: '(unset)',
    description: 'PEM private key file of PTYWS_TLS_CERT.',
    rule: absolutePath(),
    defaultValue: () => undefined,
  },
  allowInsecure: {
    name: 'PTYWS_ALLOW_INSECURE',
    default: '(unset: allowed on loopback only)',
    description:
      '`1` accepts plain http://, ws:// and plaintext gRPC, `0` refuses them (403 / gRPC UNAVAILABLE, unless a trusted proxy saw https). Unset: accepted when PTYWS_HOST (and PTYWS_GRPC_HOST) is loopback, refused otherwise.',
    rule: toggle('1', '0'),
    defaultValue: () => undefined,
  },
  allowedOrigins: {
    name: 'PTYWS_ALLOWED_ORIGINS',
    default: '(none: same origin only)',
    description:
      'Browser origins (`https://host[:port]`, comma-separated, or `*`) allowed to attach and call REST besides the same origin; a request with another `Origin` gets 403. Requests without `Origin` (non-browser clients) are not affected.',
    rule: originList(),
    defaultValue: () => [],
  },
  pushAllowedHosts: {
    name: 'PTYWS_PUSH_ALLOWED_HOSTS',
    default: '(none)',
    description:
      'Host names or CIDRs push-notification webhooks may reach although they resolve to loopback, link-local, private or unspecified addresses (refused otherwise).',
    rule: hostList(),
    defaultValue: () => [],
  },
  trustedProxies: {
    name: 'PTYWS_TRUSTED_PROXIES',
    default: '(none)',
    description:
      'CIDRs of reverse proxies (e.g. 10.0.0.0/8,::1/128): their `X-Forwarded-Proto: https` makes a plain request count as secure; the client address (rate limits, audit) is the rightmost `X-Forwarded-For` hop not in this list.',
    rule: cidrList(),
    defaultValue: () => [],
  },
  allowedHosts: {
    name: 'PTYWS_ALLOWED_HOSTS',
    default: '(none: IP literals and localhost)',
    description:
      "Host names (comma-separated, exact, or `*` for any) a request's `Host` header may name besides IP literals and `localhost`; others get 403 before routing (DNS-rebinding guard). Checked when set, and always with PTYWS_AUTH=disabled.",
    rule: allowedHostList(),
    defaultValue: () => [],
  },
  authFailureRatePerS: {
    name: 'PTYWS_AUTH_FAILURE_RATE',
    default: '10',
    description:
      'Refused bearer tokens per second one client address may present after its burst; past it its failures answer 429 (valid tokens still pass).',
    rule: integer(1, 1_000_000),
  },
  authFailureBurst: {
    name: 'PTYWS_AUTH_FAILURE_BURST',
    default: '100',
    description: 'Refused bearer tokens one client address may present in a burst (see PTYWS_AUTH_FAILURE_RATE).',
    rule: integer(1, 1_000_000),
  },
  tlsCa: {
    name: 'PTYWS_TLS_CA',
    default: '(unset: no client certificates)',
    description:
      'PEM CA bundle (needs PTYWS_TLS_CERT/KEY): every client must present a certificate signed by it (mTLS); without a bearer token the certificate subject is the principal.',
    rule: absolutePath(),
    defaultValue: () => undefined,
  },
  mtlsScopes: {
    name: 'PTYWS_MTLS_SCOPES',
    default: 'pty:observe',
    description:
      'Comma-separated scopes of a certificate principal (a client that sent a certificate but no bearer token).',
    rule: scopeList(),
  },
  auditLog: {
    name: 'PTYWS_AUDIT_LOG',
    default: '$PTYWS_STATE_DIR/audit.jsonl (single-node); Postgres (cluster)',
    description:
      'Audit events as JSON lines: an absolute file, `stdout` or `stderr` (not queryable), or `off`. Cluster mode always writes the Postgres `audit_log` table, and this too when set.',
    rule: auditTarget(),
    defaultValue: () => undefined,
  },
  maxSessionsPerAgent: {
    name: 'PTYWS_MAX_SESSIONS_PER_AGENT',
    default: '256',
    description: 'Running sessions one agent may own; further creations get 429 `RATE_LIMITED`.',
    rule: integer(1, 1_000_000),
  },
  maxSessionsPerInstance: {
    name: 'PTYWS_MAX_SESSIONS_PER_INSTANCE',
    default: '1024',
    description: 'Running sessions of the instance across all agents; further creations get 429 `RATE_LIMITED`.',
    rule: integer(1, 10_000_000),
  },
  maxConnsPerPrincipal: {
    name: 'PTYWS_MAX_CONNS_PER_PRINCIPAL',
    default: '256',
    description:
      'Open attach connections and A2A streams per principal, counted across all edges (cluster: shared within ~250 ms); more get 429.',
    rule: integer(1, 10_000_000),
  },
  maxConnsPerInstance: {
    name: 'PTYWS_MAX_CONNS_PER_INSTANCE',
    default: '20000',
    description: 'Open attach connections and A2A streams per instance, counted across all edges; more get 429.',
    rule: integer(1, 100_000_000),
  },
  abuseRefusals: {
    name: 'PTYWS_ABUSE_REFUSALS',
    default: '100',
    description:
      'Frame or input-byte refusals in a row after which a connection is closed (`binding_goodbye` rate_limited, 4429).',
    rule: integer(1, 1_000_000),
  },
  abuseRefusalsPerS: {
    name: 'PTYWS_ABUSE_REFUSALS_PER_S',
    default: '10',
    description: 'Refusals per second a connection may sustain before it is closed the same way.',
    rule: integer(1, 1_000_000),
  },
};

/** A spec with its field, erased to what the loader needs. */
export interface FieldSpec {
  field: keyof Config;
  name: string;
  default: string;
  description: string;
  secret: boolean;
  fromFile: boolean;
  rule: Rule<unknown>;
  defaultValue?: (env: NodeJS.ProcessEnv) => unknown;
}

export const FIELD_SPECS: readonly FieldSpec[] = (Object.keys(SPECS) as (keyof Config)[]).map((field) => {
  const spec = SPECS[field] as VariableSpec<keyof Config>;
  return {
    field,
    name: spec.name,
    default: spec.default,
    description: spec.description,
    secret: spec.secret === true,
    fromFile: spec.fromFile === true,
    // Each rule is paired with its own field in SPECS; erasing the type here is what lets one loop load them all.
    rule: spec.rule as Rule<unknown>,
    ...(spec.defaultValue ? { defaultValue: spec.defaultValue } : {}),
  };
});

/** The variables that hold secrets: a service drops them from its environment once read (dropSecretVariables). */
export const SECRET_VARIABLES: readonly string[] = FIELD_SPECS.filter((s) => s.secret || s.fromFile).map((s) => s.name);

export const CONFIG_VARIABLES: readonly Readonly<ConfigVariable>[] = Object.freeze(
  FIELD_SPECS.map(({ name, field, default: def, description }) =>
    Object.freeze({ name, field, default: def, description }),
  ),
);
