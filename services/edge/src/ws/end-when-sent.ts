import { ROOM_POLL_MS, type Clock } from '@pty-ws/ports';
import type { WebSocket } from '../uws';
import type { Conn } from './connection';

/**
 * Ends a socket with a close frame once what was sent before it has left this edge. uWS gives a
 * socket it ends only its end timeout (4 s on a 4 s tick: 0-4 s in fact) to send its backlog and
 * the close frame, then drops it: the reader sees 1006 and loses the tail. A reader still taking
 * the last megabyte of a replay (a paced replay keeps up to half the slow-consumer threshold in
 * its socket) would lose frames, `Closed` and the goodbye. So the close frame waits here until the
 * backlog is sent, as long as the reader takes some of it; one that takes nothing for `stallMs`
 * (the pong timeout: what keepalive allows a silent peer) is ended as it is.
 */
export function endWhenSent<T>(
  ws: WebSocket<T>,
  conn: Pick<Conn, 'socketClosed'>,
  code: number,
  reason: string,
  opts: { clock: Clock; stallMs: number },
): void {
  let backlog = ws.getBufferedAmount();
  let progressAt = opts.clock.monotonic();
  const look = (): void => {
    if (conn.socketClosed) return; // the peer closed it meanwhile
    const left = ws.getBufferedAmount();
    const now = opts.clock.monotonic();
    if (left < backlog) [backlog, progressAt] = [left, now];
    if (left === 0 || now - progressAt >= opts.stallMs) {
      ws.end(code, reason);
      return;
    }
    opts.clock.setTimeout(look, ROOM_POLL_MS).unref();
  };
  look();
}
