import type { Conn } from './connection';
import { PACE_MAX_HOLD_MS } from './pace-watch';

/**
 * How long a reader catching up from the log may drain nothing at all before it counts as stalled
 * (a frozen tab, a dead link): as long as the session's output is held for readers that drain
 * nothing.
 */
export const REPLAY_STALL_MS = PACE_MAX_HOLD_MS;
/** How often a waiting send looks at the socket when uWS reports no drain (the drain event is not relied on alone). */
const ROOM_POLL_MS = 20;

/** Why a wait for room in a socket ended. */
export type RoomWait = 'room' | 'stalled' | 'gone';

/**
 * Waits until the connection's socket backlog is at or under `roomBytes`: the pace of a catch-up
 * or replay, which sends at most that much ahead of what the reader has taken. Woken by uWS's
 * drain event (`Conn.onDrain`) or a short poll. 'stalled' when `stallMs` is given and the backlog
 * went down by nothing for that long; 'gone' when the socket closed or the connection was skipped
 * forward meanwhile (its resume takes over).
 */
export async function waitForRoom(conn: Conn, roomBytes: number, stallMs?: number): Promise<RoomWait> {
  let lowest = Number.POSITIVE_INFINITY;
  let progressAt = performance.now();
  for (;;) {
    if (!conn.open || !conn.ws || conn.feed === 'lagged') return 'gone';
    const backlog = conn.ws.getBufferedAmount();
    if (backlog <= roomBytes) return 'room';
    const now = performance.now();
    if (backlog < lowest) {
      lowest = backlog;
      progressAt = now;
    } else if (stallMs !== undefined && now - progressAt >= stallMs) return 'stalled';
    await drainOrPoll(conn);
  }
}

/** Resolves at the socket's next drain event, or after ROOM_POLL_MS. */
function drainOrPoll(conn: Conn): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      if (conn.onDrain === done) delete conn.onDrain;
      // Not from within uWS's drain handler: the sends that follow run on their own turn.
      setImmediate(resolve);
    };
    const timer = setTimeout(done, ROOM_POLL_MS);
    conn.onDrain = done;
  });
}
