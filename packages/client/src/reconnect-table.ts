/**
 * The reconnect supervisor's rule as data: for each phase, which events it answers, the phase it
 * moves to and what it does on the way. An event a phase does not list is ignored there (a late
 * answer from an attempt the client already gave up on, a close the running attempt handles).
 *
 *   idle ──connect──▶ connecting ──connected──▶ open ◀──restored── attempting
 *                        │  │                    │                  ▲   │
 *                        │  └──────lostRetry─────┴──▶ backoff ──elapsed┘   │ attemptRetry
 *                        │                              ▲─────────────────┘
 *   any phase but closed ──connectFailed / lostEnded / lostFailed / attemptFatal / exhausted / halt──▶ closed
 *   closed ──connect──▶ connecting
 */
import type { ConnectionState } from './events';

/** `backoff` waits before an attempt; `attempting` opens, re-joins and resubscribes. */
export type Phase = 'idle' | 'connecting' | 'open' | 'backoff' | 'attempting' | 'closed';

export type SupervisorEventType =
  /** connect() from idle or closed. */
  | 'connect'
  /** The first connection's `binding_hello` arrived. */
  | 'connected'
  /** The first connection failed before its hello. */
  | 'connectFailed'
  /** The open connection closed and reconnecting may bring it back. */
  | 'lostRetry'
  /** It closed because the client is leaving or the session is over: nothing to report. */
  | 'lostEnded'
  /** It closed and nothing will bring it back (fatal close code, reconnect off): an error. */
  | 'lostFailed'
  /** The backoff pause is over. */
  | 'elapsed'
  /** An attempt opened, re-joined and resubscribed. */
  | 'restored'
  /** An attempt failed in a way another attempt may fix, and attempts are left. */
  | 'attemptRetry'
  /** An attempt failed for good (authentication, not found, permission…). */
  | 'attemptFatal'
  /** The last allowed attempt failed. */
  | 'exhausted'
  /** close(), the end of leave(), or the session ended while reconnecting: stop quietly. */
  | 'halt';

export type Action =
  /** Emit the event's error as an `error` event. */
  | 'reportError'
  /** Tear the client down (connection, requests, streams, waiters), failing them with the event's error. */
  | 'teardown'
  /** A new round of attempts: replay from the highest sequence received so far. */
  | 'beginReconnect'
  /** Count the next attempt, emit `reconnecting` and start its pause. */
  | 'armBackoff'
  /** Start the next attempt. */
  | 'attempt'
  /** Close what a failed attempt left open. */
  | 'dropAttempt';

export interface Transition {
  to: Phase;
  /** Run before the phase changes (the `state` event comes after them: a closed client is torn down). */
  before?: readonly Action[];
  /** Run once the phase changed. */
  after?: readonly Action[];
}

const END_QUIETLY: Transition = { to: 'closed', before: ['teardown'] };
const END_WITH_ERROR: Transition = { to: 'closed', before: ['reportError', 'teardown'] };
const RECONNECT: Transition = { to: 'backoff', after: ['beginReconnect', 'armBackoff'] };

export const TRANSITIONS: Readonly<Record<Phase, Partial<Record<SupervisorEventType, Transition>>>> = {
  idle: {
    connect: { to: 'connecting' },
  },
  connecting: {
    connected: { to: 'open' },
    // A connect() that fails reports through its promise, not an `error` event.
    connectFailed: END_QUIETLY,
    // The hello arrived and the socket closed before connect() saw it.
    lostRetry: RECONNECT,
    lostEnded: END_QUIETLY,
    lostFailed: END_WITH_ERROR,
    halt: END_QUIETLY,
  },
  open: {
    lostRetry: RECONNECT,
    lostEnded: END_QUIETLY,
    lostFailed: END_WITH_ERROR,
    halt: END_QUIETLY,
  },
  backoff: {
    elapsed: { to: 'attempting', after: ['attempt'] },
    halt: END_QUIETLY,
  },
  attempting: {
    restored: { to: 'open' },
    attemptRetry: { to: 'backoff', before: ['dropAttempt'], after: ['armBackoff'] },
    attemptFatal: END_WITH_ERROR,
    exhausted: END_WITH_ERROR,
    halt: END_QUIETLY,
  },
  closed: {
    connect: { to: 'connecting' },
  },
};

/** The phase as the client's public `state`. */
export function publicState(phase: Phase): ConnectionState {
  return phase === 'backoff' || phase === 'attempting' ? 'reconnecting' : phase;
}
