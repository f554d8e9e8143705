import { GAP_POLL_MS, GAP_STORE_WAIT_MS, type Clock, type FrameLog, type LogEntry } from '@pty-ws/ports';
import type { Logger } from '../logger';

/** What a gap fill reads and moves: the hub's feed of one session. */
export interface GapFeed {
  readonly sessionId: string;
  readonly log: FrameLog;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The last sequence delivered. */
  head(): number;
  /** Delivers an entry the log held (in order, past `head`). */
  deliver(entry: LogEntry): void;
  /** Gives the entries up to `seq` up: the log no longer holds them. */
  skipTo(seq: number): void;
}

/**
 * Delivers the entries after the feed's head up to `toSeq` from the log. Live copies can run ahead
 * of the store (the writer publishes them beside the append), so an empty read may mean "not
 * stored yet" rather than "trimmed": the log's head tells which, and a store that does not come
 * within GAP_STORE_WAIT_MS counts as trimmed. Never rejects: a failed read is logged, and the gap
 * is given up as the caller goes on.
 */
export async function fillGap(feed: GapFeed, toSeq: number): Promise<void> {
  try {
    const deadline = feed.clock.monotonic() + GAP_STORE_WAIT_MS;
    while (feed.head() < toSeq) {
      // What the log holds first, then the read: an empty read after that means trimmed. The
      // other way round, entries stored between the read and the look were taken for trimmed.
      const upTo = Math.min(toSeq, (await feed.log.bounds(feed.sessionId)).lastSeq);
      if (upTo > feed.head()) {
        const missing = await feed.log.read(feed.sessionId, feed.head(), { toSeq: upTo, limit: 500 });
        // The log is gapless: a first entry past the hole means the hole was trimmed meanwhile.
        for (const e of missing) if (e.seq > feed.head()) feed.deliver(e);
        if (missing.length > 0) continue;
      }
      if (upTo > feed.head() || feed.clock.monotonic() > deadline) {
        feed.skipTo(toSeq); // trimmed before we could read it: nothing left to deliver
        break;
      }
      await new Promise<void>((resolve) => feed.clock.setTimeout(resolve, GAP_POLL_MS));
    }
  } catch (err) {
    feed.logger.warn({ session_id: feed.sessionId, err: (err as Error).message }, 'hub gap fill failed');
  }
}
