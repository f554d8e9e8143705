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
  /** The session's cut was logged here (at warn, once): later notices of it are logged at debug. */
  cutLogged: boolean;
}

export interface CutCloseDeps extends GoodbyeDeps {
  conns: () => Iterable<Conn>;
  hub: (sessionId: string) => CutHubState | undefined;
  logger: Logger;
}

/** Why a connection is told of a server fault at the close: the Error's message, and the audit's `via`. */
interface Fault {
  message: string;
  via: 'notice' | 'log';
}

/** What a reader is told when it learns of the fault from the log's own `Closed` reason `error`. */
const CLOSED_IN_ERROR =
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
    if (cut && conn.attached) sendCutClosed(conn);
    goodbyeAtClose(deps, conn, { message: cut?.message ?? CLOSED_IN_ERROR, via: cut ? 'notice' : 'log' });
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
 * `Closed` is a log frame (README interpretation 1): it takes the number after the last one this
 * connection got, so sequences stay strictly increasing. That is the number the log's own `Closed`
 * gets once appended after what the log holds, unless the reader saw output the log never stored.
 */
function sendCutClosed(conn: Conn): void {
  conn.flushFeed?.(); // frames delivered this turn keep their numbers, before this one
  conn.lastSeq += 1;
  conn.position = Math.max(conn.position, conn.lastSeq);
  conn.closedReason = 'error';
  sendDirect(conn, 'pty.session_frame', { kind: 'Closed', exit_code: null, reason: 'error' });
}
