import type {
  BindingHelloPayload,
  ClientRef,
  ClosedReason,
  GoodbyeReason,
  OutputStream,
  PtyErrorCode,
  PtyRole,
} from '@pty-ws/protocol';
import type { PtyWsError } from './errors';
import type { TaskUpdate } from './tasks';

/** `idle` until connect(); `open` once `binding_hello` arrived (and, after a reconnect, the re-join was sent). */
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface StateChangeEvent {
  state: ConnectionState;
  previous: ConnectionState;
}

export interface OutputEvent {
  data: Uint8Array;
  sequence: number;
  stream: OutputStream;
  /** True while inside a join flush (replayed history before its Keyframe), false for live output. */
  replayed: boolean;
}

export interface KeyframeEvent {
  /** The `vt100-screen-state-v1` snapshot as text, ready for `term.reset(); term.write(snapshot)`. */
  snapshot: string;
  /** The same snapshot as raw bytes. */
  data: Uint8Array;
  format: string;
  cols: number;
  rows: number;
  /** Output with a sequence ≤ this is already in the snapshot; the client drops it. */
  anchorSequence: number;
  sequence: number;
}

export interface ResizeEvent {
  cols: number;
  rows: number;
  sequence: number;
}

export interface MembershipEvent {
  controllers: ClientRef[];
  observers: ClientRef[];
  sequence: number;
}

/** This connection's own `RoleAssigned`. */
export interface RoleEvent {
  role: PtyRole;
  clientId: string;
  downgraded: boolean;
  reason?: string;
  sequence: number;
}

export interface ClosedEvent {
  exitCode: number | null;
  reason: ClosedReason | (string & Record<never, never>);
  detail?: string;
  sequence: number;
}

/** A PTY-level `Error` session frame; the connection stays up. */
export interface PtyErrorEvent {
  code: PtyErrorCode | (string & Record<never, never>);
  message: string;
  sequence: number;
}

export interface GoodbyeEvent {
  reason: GoodbyeReason | (string & Record<never, never>);
}

/** Emitted right before re-joining after a reconnect: the UI should `term.reset()`. */
export interface ResetEvent {
  replayFrom: number;
}

/** The server could not replay from `replayFrom`: prior state is lost; a Keyframe follows for the PTY. */
export interface ReplayLostEvent {
  replayFrom: number;
  /** Set when it was a task resubscription that lost its replay. */
  taskId?: string;
  error: PtyWsError;
}

export interface DisconnectEvent {
  code: number;
  reason: string;
  willReconnect: boolean;
  error?: PtyWsError;
}

export interface ReconnectingEvent {
  attempt: number;
  delayMs: number;
}

export interface PtyClientEvents {
  state: StateChangeEvent;
  hello: BindingHelloPayload;
  output: OutputEvent;
  keyframe: KeyframeEvent;
  resize: ResizeEvent;
  membership: MembershipEvent;
  role: RoleEvent;
  closed: ClosedEvent;
  ptyError: PtyErrorEvent;
  /** Binding `Error` frames not tied to a pending request, transport and protocol failures. */
  error: PtyWsError;
  goodbye: GoodbyeEvent;
  reset: ResetEvent;
  replayLost: ReplayLostEvent;
  /** Every TaskStatusUpdate, whether or not a TaskStream holds it. */
  taskUpdate: TaskUpdate;
  disconnect: DisconnectEvent;
  reconnecting: ReconnectingEvent;
}
