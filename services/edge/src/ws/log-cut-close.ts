import { CloseCode, type GoodbyeReason } from '@pty-ws/protocol';
import type { LogCut } from '@pty-ws/ports';
import type { EdgeAudit } from '../audit/edge-audit';
import type { Conn } from './connection';
import { sendDirect, sendError } from './frame-writer';

export interface CutCloseDeps {
  conns: () => Iterable<Conn>;
  goodbye: (conn: Conn, reason: GoodbyeReason, code: number) => void;
  /** The sequence of the session's `Closed` once this edge delivered it from the log (SessionHub.closedSeq). */
  closedSeq: (sessionId: string) => number | undefined;
  audit?: EdgeAudit | undefined;
}

/** What a reader is told when it learns of the cut from the log's own `Closed` reason `error`. */
const CUT_IN_LOG =
  "the session was ended because its frame log could not be written; output after the log's last frame was lost";

/**
 * Ends every connection of a session whose owner gave its frame log up. From the owner's notice
 * (`cut`, told beside the log, which may still be unreachable): each attached connection gets a
 * `Closed` reason `error` (sendCutClosed), then a binding Error `INTERNAL`, then binding_goodbye
 * session_closed. From the log's own
 * `Closed` reason `error` (`cut` undefined; already delivered by the hub): the Error and the goodbye.
 * The session ends once on every connection, whichever path comes first: once the log's `Closed`
 * was delivered, a notice (the owner sends it again right after appending that `Closed`) changes
 * nothing, since each connection has that `Closed`, or is being sent it, and the log's path ends
 * it; a `Closed` made from the notice would be a second one. A connection ended by the notice is
 * not there for the log's path. `stillOwed`: a reader still catching up from the log, which gets
 * the log's `Closed` in its turn and the goodbye after it.
 */
export function closeCutSession(
  deps: CutCloseDeps,
  sessionId: string,
  cut: LogCut | undefined,
  stillOwed: (conn: Conn) => boolean = () => false,
): void {
  if (cut && deps.closedSeq(sessionId) !== undefined) return;
  for (const conn of [...deps.conns()]) {
    if (conn.sessionId !== sessionId || !conn.open || stillOwed(conn)) continue;
    // Joined after the close: it replays the log, which ends in the same `Closed`, then the goodbye.
    if (conn.sessionClosed || conn.phase === 'replaying') continue;
    if (cut && conn.attached) sendCutClosed(conn);
    sendError(conn, 'INTERNAL', cut?.message ?? CUT_IN_LOG);
    deps.audit?.logCut(conn, { last_sequence: conn.lastSeq, via: cut ? 'notice' : 'log' });
    deps.goodbye(conn, 'session_closed', CloseCode.NORMAL);
  }
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
  sendDirect(conn, 'pty.session_frame', { kind: 'Closed', exit_code: null, reason: 'error' });
}
