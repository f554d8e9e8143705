import { CloseCode, type GoodbyeReason } from '@pty-ws/protocol';
import type { LogCut } from '@pty-ws/ports';
import type { EdgeAudit } from '../audit/edge-audit';
import type { Logger } from '../logger';
import type { Conn } from './connection';
import { sendDirect, sendError } from './frame-writer';

/** What ending a connection at its session's close needs (goodbyeAtClose). */
export interface GoodbyeDeps {
  goodbye: (conn: Conn, reason: GoodbyeReason, code: number) => void;
  audit?: EdgeAudit | undefined;
}

/** What this edge knows of a session's end, kept on its hub (SessionHub). */
export interface CutHubState {
  /** The sequence of the session's `Closed` once this edge delivered it from the log. */
  readonly closedSeq: number | undefined;
  /** The highest sequence of the log this edge delivered. */
  readonly head: number;
  /** The session's cut was logged here (at warn, once): later notices of it are logged at debug. */
  cutLogged: boolean;
}

export interface CutCloseDeps extends GoodbyeDeps {
  conns: () => Iterable<Conn>;
  hub: (sessionId: string) => CutHubState | undefined;
  logger: Logger;
}

/** Why a connection is told of a server fault at the close: the Error's message, and the audit's `via`. */
export interface Fault {
  message: string;
  /** How this edge learnt of it: the owner's notice, the log's `Closed`, the registry (a join after the close). */
  via: 'notice' | 'log' | 'registry';
}

/** What a reader is told when it learns of the fault from the log's own `Closed` reason `error`. */
export const CLOSED_IN_ERROR =
  'the session was ended by the server, not by its program (Closed reason error: its frame log could not be ' +
  "written, or its program was lost); output after the log's last frame was lost";

/**
 * The goodbye of a connection at its session's close: binding_goodbye session_closed, close 1000.
 *
 * The rule for `Closed` reason `error`: pty-extensions/v1 lists `error` among `Closed`'s reasons
 * and says every connection gets binding_goodbye after `Closed`; it is the one reason that says
 * the server, not the program or a person, ended the session (here: the owner gave the session's
 * frame log up, or lost a managed session's program while no agent watched it). The binding's
 * word for a server fault is an `Error` `INTERNAL` (binding §6, "catch-all server fault"), and
 * nothing is lost silently. So a connection that was sent a `Closed` reason `error`, by whichever
 * path (live, catch-up after a lag, the join's flush, a join after the close, a cut notice), gets
 * an Error `INTERNAL` right after it and before its goodbye; a `Closed` with any other reason gets
 * none. `fault`: told although no such `Closed` was written to it (the notice's own path, a
 * connection not attached, which gets no log frames).
 */
export function goodbyeAtClose(deps: GoodbyeDeps, conn: Conn, fault?: Fault): void {
  conn.flushFeed?.(); // the Closed delivered this turn is written first
  const told = fault ?? (conn.closedReason === 'error' ? { message: CLOSED_IN_ERROR, via: 'log' } : undefined);
  if (told && conn.open) {
    sendError(conn, 'INTERNAL', told.message);
    deps.audit?.logCut(conn, { last_sequence: conn.lastSeq, via: told.via });
  }
  deps.goodbye(conn, 'session_closed', CloseCode.NORMAL);
}

/**
 * Ends every connection of a session whose owner gave its frame log up. From the owner's notice
 * (`cut`, told beside the log, which may still be unreachable): each attached connection gets a
 * `Closed` reason `error` (sendCutClosed), then a binding Error `INTERNAL`, then binding_goodbye
 * session_closed. From the log's own `Closed` reason `error` (`cut` undefined; already delivered
 * by the hub): the Error and the goodbye (goodbyeAtClose).
 * The session ends once on every connection, whichever path comes first: once the log's `Closed`
 * was delivered, a notice (the owner sends it again right after appending that `Closed`) changes
 * nothing, since each connection has that `Closed`, or is being sent it, and the log's path ends
 * it; a `Closed` made from the notice would be a second one. A connection ended by the notice is
 * not there for the log's path. `stillOwed`: a reader still catching up from the log, which gets
 * the log's `Closed` in its turn, then the Error and the goodbye (goodbyeAtClose, from
 * SessionHub's onClosedReached). The cut is logged at warn once per session here; the notices
 * repeated after it at debug.
 */
export function closeCutSession(
  deps: CutCloseDeps,
  sessionId: string,
  cut: LogCut | undefined,
  stillOwed: (conn: Conn) => boolean = () => false,
): void {
  const hub = deps.hub(sessionId);
  // The log's `Closed` was delivered: its own path ends the connections (and logs the cut).
  const byLog = cut !== undefined && hub?.closedSeq !== undefined;
  let ended = 0;
  for (const conn of byLog ? [] : [...deps.conns()]) {
    if (conn.sessionId !== sessionId || !conn.open || stillOwed(conn)) continue;
    // Joined after the close: it replays the log, which ends in the same `Closed`, then the goodbye.
    if (conn.sessionClosed || conn.phase === 'replaying') continue;
    let message = cut?.message ?? CLOSED_IN_ERROR;
    if (cut && conn.attached) message += sendCutClosed(conn, hub?.head ?? 0);
    goodbyeAtClose(deps, conn, { message, via: cut ? 'notice' : 'log' });
    ended++;
  }
  const fields = {
    session_id: sessionId,
    last_seq: cut?.lastSeq ?? hub?.closedSeq,
    via: cut ? 'notice' : 'log',
    ended,
  };
  if (byLog || hub?.cutLogged === true) return deps.logger.debug(fields, 'frame log cut told again');
  if (hub) hub.cutLogged = true;
  deps.logger.warn(fields, 'frame log cut: ending the connections');
}

/**
 * The `Closed` reason `error` a cut notice makes for an attached connection; returns what its
 * Error adds when the connection was not sent all the log holds (a reader lagging or catching up).
 *
 * `Closed` is a log frame (README interpretation 1) and sequences are unique per session, so this
 * one takes the number the log's own `Closed` gets: the owner appends it right after what the log
 * holds (pty-agent log-cut.ts), at the log's last sequence + 1. The highest sequence this edge
 * knows the log has is its hub's head (or further, when a join read past it: the connection's
 * position), so the `Closed` goes at that + 1: never the number of a frame the log holds and this
 * edge delivered, even to a reader that is behind (its own last sequence + 1 would be a real
 * frame's number it was never sent). It stays above whatever the connection was sent, early
 * frames of the outage the log never stored included. Not the notice's `lastSeq` + 1: the owner
 * numbered frames after the log's end that were lost, and the log's `Closed` reuses the first of
 * those numbers, so a `Closed` after them would not be the log's, nor a valid `replay_from` for
 * the closed session.
 */
function sendCutClosed(conn: Conn, logHead: number): string {
  conn.flushFeed?.(); // frames delivered this turn keep their numbers, before this one
  const sent = conn.position;
  const seq = Math.max(conn.lastSeq, conn.position, logHead) + 1;
  sendClosed(conn, { seq, exitCode: null, reason: 'error' });
  return sent < logHead
    ? ` This connection was not sent the log's frames after sequence ${sent}: join again with replay_from ${sent} to read them.`
    : '';
}

/**
 * Sends a `Closed` this edge made (the log holds none yet) at `seq`, above everything the
 * connection was sent; it is the connection's last log frame.
 */
export function sendClosed(conn: Conn, closed: { seq: number; exitCode: number | null; reason: string }): void {
  conn.flushFeed?.();
  conn.lastSeq = Math.max(conn.lastSeq + 1, closed.seq);
  conn.position = Math.max(conn.position, conn.lastSeq);
  conn.closedReason = closed.reason;
  sendDirect(conn, 'pty.session_frame', { kind: 'Closed', exit_code: closed.exitCode, reason: closed.reason });
}
