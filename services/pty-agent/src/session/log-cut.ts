import { newId } from '@pty-ws/protocol';
import type { Clock, FrameLog, LogCut, LogEntry } from '@pty-ws/ports';
import { logEndsInClosed } from '@pty-ws/ports';

export interface CutLogEnding {
  sessionId: string;
  log: FrameLog;
  /** What readers are told: the last sequence the owner numbered, and why the log was given up. */
  cut: LogCut;
  clock: Clock;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * Ends the log of a session whose owner gave it up. Its readers are told at once, beside the log
 * (FrameLog.announceCut: every edge closes their connections with an Error and `Closed` reason
 * `error`). Then, once the log takes appends again, `Closed` reason `error` is appended right
 * after what it holds, so a later replay ends the way the live readers saw it, and the readers are
 * told again, a few times: an edge cut off by the same outage may still be subscribing again when
 * the first notice goes out, and the log's `Closed` alone reaches only a subscribed edge. A log
 * that already ends in `Closed` gets no second one.
 */
export async function endCutLog(o: CutLogEnding): Promise<void> {
  o.log.announceCut?.(o.sessionId, o.cut);
  const deadline = o.clock.monotonic() + CLOSED_RETRY_MS;
  for (let delay = FIRST_RETRY_MS; ; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
    try {
      const { lastSeq } = await o.log.bounds(o.sessionId);
      if (await logEndsInClosed(o.log, o.sessionId, lastSeq)) {
        // The session's own Closed was stored after all (its append's answer was lost in the
        // outage): the log has its end, and a second Closed would follow it.
        o.logger.info({ session_id: o.sessionId, seq: lastSeq }, 'frame log cut: the log already ends in Closed');
      } else {
        await o.log.append(o.sessionId, closedByCut(lastSeq + 1, o.clock.now()));
        o.logger.info(
          { session_id: o.sessionId, seq: lastSeq + 1, lost_frames: Math.max(0, o.cut.lastSeq - lastSeq) },
          'frame log cut: Closed logged after the last stored frame',
        );
      }
      for (const wait of REPEAT_NOTICE_AFTER_MS) {
        o.log.announceCut?.(o.sessionId, o.cut);
        await sleep(o.clock, wait);
      }
      return;
    } catch (err) {
      if (o.clock.monotonic() + delay > deadline) {
        o.logger.warn(
          { session_id: o.sessionId, err: (err as Error).message },
          'frame log cut: Closed could not be logged; the log ends without it',
        );
        return;
      }
      await sleep(o.clock, delay);
    }
  }
}

function closedByCut(seq: number, ts: number): LogEntry {
  return {
    type: 'event',
    seq,
    id: newId(),
    ts,
    op: 'pty.session_frame',
    payload: { kind: 'Closed', exit_code: null, reason: 'error' },
  };
}

function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise<void>((resolve) => void clock.setTimeout(resolve, ms).unref());
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5000;
/** How long appending `Closed` is tried before it is left: the log may never come back. */
const CLOSED_RETRY_MS = 10 * 60_000;
/** The notice goes out as `Closed` is logged, then again after each of these waits. */
const REPEAT_NOTICE_AFTER_MS = [1000, 4000, 10_000];
