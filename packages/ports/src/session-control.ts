import { BindingError, isBindingError } from '@pty-ws/protocol';
import type {
  Message,
  PtyRole,
  ServiceParameters,
  SessionBackend,
  SessionClass,
  Task,
  TerminalSize,
} from '@pty-ws/protocol';
import type { SessionRecord, TaskExecutorKind } from './registry';

/** A screen snapshot (`vt100-screen-state-v1`) anchored at the last log frame it reflects. */
export interface Keyframe {
  /** Serialized screen: escape sequences that repaint a freshly reset terminal. */
  snapshot: string;
  cols: number;
  rows: number;
  anchorSeq: number;
}

/** The screen as text (`GET /api/v1/sessions/{id}/screen`), read from the owner's mirror. */
export interface SessionScreen {
  cols: number;
  rows: number;
  /** Zero-based cell position of the cursor, and whether it is shown. */
  cursor: { x: number; y: number; visible: boolean };
  title: string;
  alt_screen: boolean;
  /** One string per visible row, trailing blanks removed; `ansi` rows carry SGR sequences. */
  lines: string[];
  /** The last log entry the screen reflects (a `from_seq` for waiting on what comes next). */
  seq: number;
}

export type ScreenFormat = 'text' | 'ansi';

const SESSION_ENDED = 'session_ended';

/** What `screen` rejects with once the session has ended or is ending (the edge answers 409). */
export function sessionEndedError(sessionId: string): BindingError {
  return new BindingError('INVALID_REQUEST', `session '${sessionId}' has ended`, { reason: SESSION_ENDED });
}

export function isSessionEndedError(err: unknown): boolean {
  return isBindingError(err) && err.data?.['reason'] === SESSION_ENDED;
}

export interface RoleGrant {
  role: PtyRole;
  downgraded: boolean;
  reason?: string;
}

export interface JoinRequest {
  clientId: string;
  label?: string;
  edgeId: string;
  principalId: string;
  /** Whether the principal holds `pty:control` (the owner never makes anyone else controller). */
  canControl: boolean;
  /** Whether the principal holds `pty:admin`: it is not held to the per-principal observer share. */
  admin?: boolean;
  requestedRole: PtyRole;
  /** Geometry that applies when this is the first controller's join. */
  size?: TerminalSize;
}

export interface JoinResult {
  grant: RoleGrant;
  /** Sequence of the MembershipChanged this join appended. */
  membershipSeq: number;
  keyframe: Keyframe;
}

export interface RoleChangeResult {
  grant: RoleGrant;
  /** Sequence of the MembershipChanged appended, or undefined when nothing changed. */
  membershipSeq?: number;
  keyframe: Keyframe;
}

/** Session creation request after validation (REST body or binding §5.1.1 fields). */
export interface CreateSessionRequest {
  instanceId: string;
  sessionId?: string;
  argv?: string[];
  command?: string;
  cwd?: string;
  env?: Record<string, string>;
  size?: TerminalSize;
  backend?: SessionBackend;
  sessionClass?: SessionClass;
  /** Default `process`; `live_shell` types tasks into the session's shell (agent-installed integration). */
  taskExecutor?: TaskExecutorKind;
  /** Place on this agent; any live agent for the instance when omitted. */
  agentId?: string;
}

export interface SendMessageRequest {
  message: Message;
  serviceParameters?: ServiceParameters;
  /** Optional id chosen by the caller (must be unique). */
  taskId?: string;
}

/**
 * What an edge asks of a session's owner. Every call names the session; the owner validates
 * it is running, enforces role caps atomically (it is the single writer of membership), and
 * appends the resulting frames to the session's FrameLog before resolving.
 *
 * Errors are BindingErrors (TASK_NOT_FOUND, PERMISSION_DENIED, INVALID_REQUEST, …).
 */
export interface SessionControl {
  createSession(req: CreateSessionRequest): Promise<SessionRecord>;
  killSession(sessionId: string): Promise<void>;

  join(sessionId: string, req: JoinRequest): Promise<JoinResult>;
  leave(sessionId: string, clientId: string): Promise<void>;
  /** Changes the caller's own role; observer→controller needs `canControl` and spare capacity. */
  setRole(sessionId: string, clientId: string, role: PtyRole, canControl: boolean): Promise<RoleChangeResult>;
  /** Drops every member held by an edge that died (cluster mode liveness). */
  releaseEdge(edgeId: string): Promise<void>;

  /** Writes to the PTY in arrival order; rejects PERMISSION_DENIED for non-controllers. */
  input(sessionId: string, clientId: string, data: Uint8Array): Promise<void>;
  resize(sessionId: string, clientId: string, size: TerminalSize): Promise<void>;
  keyframe(sessionId: string): Promise<Keyframe>;
  /** The screen as text from the session's mirror (the keyframes' terminal); TASK_NOT_FOUND once it ended. */
  screen(sessionId: string, format: ScreenFormat): Promise<SessionScreen>;
  /**
   * Most readers of the session on `edgeId` are behind (true), or they keep up again (false). While
   * every edge holding members says so, the owner stops reading the PTY: output goes at the pace
   * of most readers (the edge's ws/output-flow). A report lapses unless repeated (an edge that dies cannot hold output).
   * Resolves with whether the owner holds the output after this report: then what still reaches
   * the edge was on its way before (a cluster's log and links held up to ~20 MiB of a 100-reader
   * flood), not output of a program that runs on because another edge's readers keep up.
   */
  pace(sessionId: string, edgeId: string, behind: boolean): Promise<boolean>;

  /** Runs the message as a task and resolves with its snapshot once it reached a final state. */
  sendMessage(sessionId: string, req: SendMessageRequest): Promise<Task>;
  /** Persists the task as SUBMITTED without running it or emitting any frame. */
  createTask(sessionId: string, req: SendMessageRequest): Promise<Task>;
  /** Runs a created task; its updates (WORKING first) follow through the frame log. */
  runTask(sessionId: string, taskId: string): Promise<void>;
  getTask(sessionId: string, taskId: string, historyLength?: number): Promise<Task>;
  listTasks(
    sessionId: string,
    q: { pageSize: number; pageToken?: string; state?: string; contextId?: string },
  ): Promise<{ tasks: Task[]; nextPageToken?: string }>;
  cancelTask(sessionId: string, taskId: string): Promise<Task>;
}
