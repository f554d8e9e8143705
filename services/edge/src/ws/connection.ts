import type { PtyRole, ServiceParameters } from '@pty-ws/protocol';
import type { ClockTimer } from '@pty-ws/ports';
import type { Principal } from '../auth';
import type { FrameLimiter } from '../limits';
import type { WebSocket } from '../uws';

/**
 * Where a connection is in its life, one way only:
 *
 *   greeting ──▶ ready ──▶ joined ──▶ leaving ──▶ closed
 *       │          │         └────────────────────▲
 *       │          └──▶ replaying ────────────────▲   (joined a session that had closed)
 *       └─────────────────────────────────────────▲   (any phase may close)
 *
 * - greeting: upgraded, binding_hello not sent yet; frames received meanwhile are held.
 * - ready: hello sent; task verbs work, the session's log frames do not come (not joined).
 * - joined: a member of the session; receives every log frame (README interpretation 2).
 * - replaying: joined a closed session: receives the end of its log, never a member, then goodbye.
 * - leaving: pty.leave_session in flight; still fed, so still receives log frames until
 *   the goodbye (its sequence must count them), but acts on nothing.
 * - closed: the socket is gone.
 */
export type ConnPhase = 'greeting' | 'ready' | 'joined' | 'replaying' | 'leaving' | 'closed';

const NEXT: Readonly<Record<ConnPhase, readonly ConnPhase[]>> = {
  greeting: ['ready', 'closed'],
  ready: ['joined', 'replaying', 'closed'],
  joined: ['leaving', 'closed'],
  replaying: ['closed'],
  leaving: ['closed'],
  closed: [],
};

/**
 * How the session's frames reach a connection: the hub's (session-hub.ts) state, beside the phase
 * rather than in it, since it moves back and forth within one phase (a joined connection goes
 * behind for every role change and lag, and a ready one with task subscriptions is fed too):
 *
 *   behind ──▶ live ──▶ lagged        live → behind: role change, join, task subscription
 *     │                   ▲ │         behind → lagged: a direct (catch-up, replay) send would pass
 *     └───────────────────┘ │           the backlog bound, where uWS would drop it
 *     ▲                     │         lagged → live: a catch-up by another path ends the lag too
 *     └─────────────────────┘         lagged → behind: drained; PTY_OUTPUT_LAGGED and a Keyframe
 *                                       follow, then a catch-up
 *
 * - behind: not fed by the hub as it delivers; frames reach it by catch-up.
 * - live: caught up to the hub's head; the hub sends it each frame it delivers.
 * - lagged: skipped forward because its socket backed up; resumes when the socket drains.
 */
export type ConnFeed = 'behind' | 'live' | 'lagged';

const FEED_NEXT: Readonly<Record<ConnFeed, readonly ConnFeed[]>> = {
  behind: ['live', 'lagged'],
  live: ['behind', 'lagged'],
  lagged: ['behind', 'live'],
};

/** What the upgrade knows about a connection before the socket opens. */
export interface ConnInit {
  clientId: string;
  instanceId: string;
  sessionId: string;
  principal: Principal;
  binary: boolean;
  remoteAddress: string;
  /** The session had closed at the upgrade (it is still retained); see `sessionClosed`. */
  sessionClosed?: boolean;
}

/**
 * What the uWS socket carries as its user data: the connection, one field. uWS copies every own
 * field of the upgrade's user data onto its socket object; a copy of the many-field connection
 * sent that object into V8's dictionary mode (1.6 KB a socket, and a hash lookup per field read
 * on the fan-out path). `Conn` stays a class instance of its own, with fast in-object fields.
 */
export interface ConnSocketData {
  readonly conn: Conn;
}

/** A resolved promise every new connection's PTY queue starts from (one for all of them). */
const SETTLED: Promise<void> = Promise.resolve();

/**
 * Per-connection state. `advance` is the only writer of the phase and of the flags derived from
 * it. Every field is declared here, so every connection has the same shape; what only some
 * connections need (task subscriptions, held frames, the inbound limiter) is made on first use.
 */
export class Conn {
  readonly clientId: string;
  readonly instanceId: string;
  readonly sessionId: string;
  readonly principal: Principal;
  readonly binary: boolean;
  readonly remoteAddress: string;
  /**
   * The session had closed when this connection was upgraded (it is still retained): a join
   * replays its log, which ends in `Closed`, then gets binding_goodbye session_closed.
   */
  readonly sessionClosed: boolean;
  readonly phase: ConnPhase = 'greeting';
  /** Derived from `phase` by `advance`: the socket is still there (not closed). */
  readonly open: boolean = true;
  /** Derived: receives the session's non-task log frames (joined, replaying, leaving). */
  readonly attached: boolean = false;
  /** Derived: holds a role the owner must be told to release (joined). */
  readonly member: boolean = false;
  ws?: WebSocket<ConnSocketData>;
  /** uWS's close event came: the socket is gone and may no longer be touched. */
  socketClosed?: boolean;
  /** Highest log sequence written to this connection (README interpretation 1): what replies carry. */
  lastSeq = 0;
  /**
   * The reason of the session's `Closed` once it was written to this connection, by whichever
   * path (live, catch-up, replay, a cut notice): `error` is followed by an Error (log-cut-close.ts).
   */
  closedReason?: string;
  /** How far through the session log this connection's feed has moved, frames filtered out included. */
  position = 0;
  role?: PtyRole;
  label?: string;
  /** Tasks whose TaskStatusUpdate frames this connection receives; made by the first subscription. */
  tasks?: Set<string>;
  /** How the session's frames reach it (see ConnFeed); `moveFeed`, called by the hub, is the only writer. */
  readonly feed: ConnFeed = 'behind';
  /** Monotonic time (the hub's Clock) since which its backlog has stayed above the slow-consumer threshold. */
  backlogSince?: number;
  /** A pty.join_session is being handled (join-flow.ts): a goodbye at the session's close waits for it. */
  joining?: boolean;
  /** Set while a catch-up or replay waits for room in this socket (output-flow/socket-room.ts): called on uWS's drain. */
  onDrain?: () => void;
  /**
   * Set by the session hub while it holds the connection: writes the log frames it delivered this
   * turn and has not written yet. Everything else sent to the socket calls it first, so the
   * socket gets its frames in order and what is sent next carries a true `lastSeq`.
   */
  flushFeed?: () => void;
  firstFrameSeen = false;
  extensionActive = true;
  serviceParameters?: ServiceParameters;
  /** When the oldest unanswered ping was sent; undefined while the peer answers. */
  pingOutstandingSince?: number;
  /** Pace probes (output-flow/pace-probe.ts): monotonic time when the unanswered one was sent, if one is out. */
  probeSentAt?: number;
  /** Monotonic time when the last pace probe was answered. */
  probeAnsweredAt?: number;
  /** The session's output bytes on this edge when the last pace probe was sent. */
  probeFlowMark?: number;
  lastKeyframeRequestAt = 0;
  /** Serializes PTY verbs of one connection so join/input/resize apply in arrival order. */
  ptyQueue: Promise<void> = SETTLED;
  /** Frames received while greeting (before binding_hello went out), handled once it has; made by the first. */
  heldFrames?: Array<{ data: ArrayBuffer; isBinary: boolean; bytes: number }>;
  /** Inbound frame and input-byte budget, created on the first frame. */
  limiter?: FrameLimiter;
  /** For `sessionClosed`: ends the connection if no join comes (CLOSED_SESSION_JOIN_GRACE_MS). */
  closedJoinTimer?: ClockTimer;

  constructor(init: ConnInit) {
    this.clientId = init.clientId;
    this.instanceId = init.instanceId;
    this.sessionId = init.sessionId;
    this.principal = init.principal;
    this.binary = init.binary;
    this.remoteAddress = init.remoteAddress;
    this.sessionClosed = init.sessionClosed ?? false;
  }
}

/** The fields `advance` writes. */
interface PhaseFields {
  phase: ConnPhase;
  open: boolean;
  attached: boolean;
  member: boolean;
}

function fieldsOf(phase: ConnPhase): PhaseFields {
  return {
    phase,
    open: phase !== 'closed',
    attached: phase === 'joined' || phase === 'replaying' || phase === 'leaving',
    member: phase === 'joined',
  };
}

export function newConn(init: ConnInit): Conn {
  return new Conn(init);
}

/**
 * The one way a connection's phase changes. Returns false, changing nothing, when `to` does not
 * follow the current phase (a second close, a join racing a close): callers treat that as "not
 * for me".
 */
export function advance(conn: Conn, to: ConnPhase): boolean {
  if (!NEXT[conn.phase].includes(to)) return false;
  const state: PhaseFields = conn;
  Object.assign(state, fieldsOf(to));
  return true;
}

/** The one way a connection's feed changes; false, changing nothing, when `to` does not follow. */
export function moveFeed(conn: Conn, to: ConnFeed): boolean {
  if (!FEED_NEXT[conn.feed].includes(to)) return false;
  (conn as { feed: ConnFeed }).feed = to;
  return true;
}
