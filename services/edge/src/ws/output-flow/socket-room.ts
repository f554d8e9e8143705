import { ROOM_POLL_MS, type Clock } from '@pty-ws/ports';
import { afterIo } from '../../next-turn';
import type { Conn } from '../connection';

/** Why a wait for room in a socket ended. */
export type RoomWait = 'room' | 'stalled' | 'gone';

/**
 * Waits until the connection's socket backlog is at or under `roomBytes`: the pace of a catch-up
 * or replay, which sends at most that much ahead of what the reader has taken. Woken by uWS's
 * drain event (`Conn.onDrain`) or a short poll. 'stalled' when `stallMs` is given and the backlog
 * went down by nothing for that long; 'gone' when the socket closed or the connection was skipped
 * forward meanwhile (its resume takes over).
 */
export async function waitForRoom(clock: Clock, conn: Conn, roomBytes: number, stallMs?: number): Promise<RoomWait> {
  let lowest = Number.POSITIVE_INFINITY;
  let progressAt = clock.monotonic();
  for (;;) {
    if (!conn.open || !conn.ws || conn.feed === 'lagged') return 'gone';
    const backlog = conn.ws.getBufferedAmount();
    if (backlog <= roomBytes) return 'room';
    const now = clock.monotonic();
    if (backlog < lowest) {
      lowest = backlog;
      progressAt = now;
    } else if (stallMs !== undefined && now - progressAt >= stallMs) return 'stalled';
    await drainOrPoll(clock, conn);
  }
}

/** Resolves at the socket's next drain event, or after ROOM_POLL_MS. */
function drainOrPoll(clock: Clock, conn: Conn): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      timer.cancel();
      if (conn.onDrain === done) delete conn.onDrain;
      // Not from within uWS's drain handler: the sends that follow run on their own turn.
      afterIo(resolve);
    };
    const timer = clock.setTimeout(done, ROOM_POLL_MS);
    conn.onDrain = done;
  });
}
