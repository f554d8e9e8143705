import { integer } from './rules';
import { MIB, type SpecPart } from './variable-spec';

/** Per-edge and per-principal limits: message sizes, rates, connection and session caps, abuse. */
export const LIMIT_VARIABLES = {
  maxFrameBytes: {
    name: 'PTYWS_MAX_FRAME_BYTES',
    reader: 'edge',
    tier: 'operations',
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
    reader: 'edge',
    tier: 'tuning',
    why: 'Memory an edge may spend on half-received messages; the default suits PTYWS_MAX_SOCKETS at the default frame size.',
    default: '2147483648',
    description:
      'Bytes of unfinished inbound WebSocket messages an edge may hold: it admits at most this ÷ (PTYWS_MAX_FRAME_BYTES + 64 KiB) WebSockets (~10,900 at the defaults), fewer than PTYWS_MAX_SOCKETS when frames are large (SECURITY.md).',
    rule: integer(MIB, 1024 * 1024 * MIB),
  },
  connRatePerPrincipal: {
    name: 'PTYWS_CONN_RATE_PER_PRINCIPAL',
    reader: 'edge',
    tier: 'operations',
    default: '30',
    description:
      'New attach connections per second per principal (token); over it the upgrade gets 429 `RATE_LIMITED`.',
    rule: integer(1, 1_000_000),
  },
  connBurstPerPrincipal: {
    name: 'PTYWS_CONN_BURST_PER_PRINCIPAL',
    reader: 'edge',
    tier: 'tuning',
    why: 'Reconnect storms after an edge restart: raise it with the number of tabs one token keeps open.',
    default: '60',
    description: 'Connections a principal may open at once before PTYWS_CONN_RATE_PER_PRINCIPAL applies.',
    rule: integer(1, 1_000_000),
  },
  connRatePerInstance: {
    name: 'PTYWS_CONN_RATE_PER_INSTANCE',
    reader: 'edge',
    tier: 'operations',
    default: '300',
    description: 'New attach connections per second per instance on one edge; over it the upgrade gets 429.',
    rule: integer(1, 1_000_000),
  },
  connBurstPerInstance: {
    name: 'PTYWS_CONN_BURST_PER_INSTANCE',
    reader: 'edge',
    tier: 'tuning',
    why: 'The same for a whole instance.',
    default: '600',
    description: 'Connections an instance may open at once before PTYWS_CONN_RATE_PER_INSTANCE applies.',
    rule: integer(1, 1_000_000),
  },
  apiRatePerPrincipal: {
    name: 'PTYWS_API_RATE_PER_PRINCIPAL',
    reader: 'edge',
    tier: 'operations',
    default: '200',
    description:
      'Control-plane requests (A2A HTTP+JSON, JSON-RPC, gRPC; REST API) per second per principal, apart from attach upgrades; over it 429 `RATE_LIMITED`.',
    rule: integer(1, 1_000_000),
  },
  apiBurstPerPrincipal: {
    name: 'PTYWS_API_BURST_PER_PRINCIPAL',
    reader: 'edge',
    tier: 'tuning',
    why: 'Clients that send many requests at once (dashboards listing sessions) before settling.',
    default: '400',
    description: 'Requests a principal may make at once before PTYWS_API_RATE_PER_PRINCIPAL applies.',
    rule: integer(1, 1_000_000),
  },
  frameRatePerConn: {
    name: 'PTYWS_FRAME_RATE_PER_CONN',
    reader: 'edge',
    tier: 'operations',
    default: '2000',
    description:
      'Inbound frames per second per connection; extra frames get an Error `RATE_LIMITED`, a sustained flood is closed with 4429.',
    rule: integer(1, 1_000_000),
  },
  inputBytesPerConn: {
    name: 'PTYWS_INPUT_BYTES_PER_CONN',
    reader: 'edge',
    tier: 'operations',
    default: '4194304',
    description: 'PTY input bytes per second per connection (JSON and `PW1I`); over it the input frame is refused.',
    rule: integer(1024, 1024 * MIB),
  },
  maxHttpRequests: {
    name: 'PTYWS_MAX_HTTP_REQUESTS',
    reader: 'edge',
    tier: 'operations',
    default: '1024',
    description:
      'HTTP requests (and upgrades) an edge holds received but not yet answered; further ones get 503 at once (streams count until their first byte).',
    rule: integer(1, 10_000_000),
  },
  maxSockets: {
    name: 'PTYWS_MAX_SOCKETS',
    reader: 'edge',
    tier: 'operations',
    default: '10000',
    description: 'Open WebSockets per edge; further upgrades get 503.',
    rule: integer(1, 10_000_000),
  },
  authFailureRatePerS: {
    name: 'PTYWS_AUTH_FAILURE_RATE',
    reader: 'edge',
    tier: 'operations',
    default: '10',
    description:
      'Refused bearer tokens per second one client address may present after its burst; past it its failures answer 429 (valid tokens still pass).',
    rule: integer(1, 1_000_000),
  },
  authFailureBurst: {
    name: 'PTYWS_AUTH_FAILURE_BURST',
    reader: 'edge',
    tier: 'tuning',
    why: 'Clients behind one NAT address that retry with stale tokens together.',
    default: '100',
    description: 'Refused bearer tokens one client address may present in a burst (see PTYWS_AUTH_FAILURE_RATE).',
    rule: integer(1, 1_000_000),
  },
  maxSessionsPerAgent: {
    name: 'PTYWS_MAX_SESSIONS_PER_AGENT',
    reader: 'agent',
    tier: 'operations',
    default: '256',
    description: 'Running sessions one agent may own; further creations get 429 `RATE_LIMITED`.',
    rule: integer(1, 1_000_000),
  },
  maxSessionsPerInstance: {
    name: 'PTYWS_MAX_SESSIONS_PER_INSTANCE',
    reader: 'agent',
    tier: 'operations',
    default: '1024',
    description: 'Running sessions of the instance across all agents; further creations get 429 `RATE_LIMITED`.',
    rule: integer(1, 10_000_000),
  },
  maxConnsPerPrincipal: {
    name: 'PTYWS_MAX_CONNS_PER_PRINCIPAL',
    reader: 'edge',
    tier: 'operations',
    default: '256',
    description:
      'Open attach connections and A2A streams per principal, counted across all edges (cluster: shared within ~250 ms); more get 429.',
    rule: integer(1, 10_000_000),
  },
  maxConnsPerInstance: {
    name: 'PTYWS_MAX_CONNS_PER_INSTANCE',
    reader: 'edge',
    tier: 'operations',
    default: '20000',
    description: 'Open attach connections and A2A streams per instance, counted across all edges; more get 429.',
    rule: integer(1, 100_000_000),
  },
  abuseRefusals: {
    name: 'PTYWS_ABUSE_REFUSALS',
    reader: 'edge',
    tier: 'tuning',
    why: 'Refusals in a row tolerated before a flooding connection is closed.',
    default: '100',
    description:
      'Frame or input-byte refusals in a row after which a connection is closed (`binding_goodbye` rate_limited, 4429).',
    rule: integer(1, 1_000_000),
  },
  abuseRefusalsPerS: {
    name: 'PTYWS_ABUSE_REFUSALS_PER_S',
    reader: 'edge',
    tier: 'tuning',
    why: 'The sustained refusal rate tolerated before the same close.',
    default: '10',
    description: 'Refusals per second a connection may sustain before it is closed the same way.',
    rule: integer(1, 1_000_000),
  },
} satisfies SpecPart;
