import type { PtyRole, ServiceParameters } from '@pty-ws/protocol';
import type { Principal } from '../auth';
import type { FrameLimiter } from '../limits';
import type { WebSocket } from '../uws';

/** Per-connection state, kept as the uWS socket's user data. */
export interface Conn {
  readonly clientId: string;
  readonly instanceId: string;
  readonly sessionId: string;
  readonly principal: Principal;
  readonly binary: boolean;
  readonly remoteAddress: string;
  ws?: WebSocket<Conn>;
  open: boolean;
  /** Highest log sequence written to this connection (README interpretation 1): what replies carry. */
  lastSeq: number;
  /** How far through the session log this connection's feed has moved, frames filtered out included. */
  position: number;
  /** Joined via pty.join_session: receives every non-task log frame. */
  attached: boolean;
  role?: PtyRole;
  label?: string;
  /** Tasks whose TaskStatusUpdate frames this connection receives. */
  readonly tasks: Set<string>;
  /** Subscribed to its topics (caught up); otherwise frames reach it by catch-up. */
  live: boolean;
  /** Skipped forward because its socket backed up; resumed with PTY_OUTPUT_LAGGED + Keyframe. */
  lagged: boolean;
  firstFrameSeen: boolean;
  extensionActive: boolean;
  serviceParameters?: ServiceParameters;
  lastPongAt: number;
  /** When the oldest unanswered ping was sent; undefined while the peer answers. */
  pingOutstandingSince?: number;
  lastKeyframeRequestAt: number;
  /** Serializes PTY verbs of one connection so join/input/resize apply in arrival order. */
  ptyQueue: Promise<void>;
  leaving: boolean;
  /** Frames received before binding_hello went out; undefined once it has. */
  heldFrames?: Array<{ data: ArrayBuffer; isBinary: boolean }>;
  /** Inbound frame and input-byte budget, created on the first frame. */
  limiter?: FrameLimiter;
  /**
   * The session had closed when this connection was upgraded (it is still retained): a join
   * replays its log, which ends in `Closed`, then gets binding_goodbye session_closed.
   */
  sessionClosed?: boolean;
  /** For `sessionClosed`: ends the connection if no join comes (CLOSED_SESSION_JOIN_GRACE_MS). */
  closedJoinTimer?: NodeJS.Timeout;
}
