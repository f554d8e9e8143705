import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { LogBounds, LogCut, LogEntry, Unsubscribe } from '@pty-ws/ports';
import { decode, decodeCut } from './codec';
import { LiveFeed } from './live-feed';
import type { Located } from './subject-reader';
import type { FrameSubjects } from './subjects';

/** Entries per log read when a subscriber fills a hole in its live feed. */
const FILL_BATCH = 500;

export interface SubscribeSource {
  nc: NatsConnection;
  subjects: FrameSubjects;
  read(afterSeq: number, opts: { toSeq: number; limit: number }): Promise<LogEntry[]>;
  bounds(): Promise<LogBounds>;
  report(error: unknown): void;
  /** A stored entry the stream republished, with its stream position (`Nats-Sequence`). */
  stored?(m: Located): void;
}

/**
 * One subscriber of a session: the stream's republished copies and the writer's early copies,
 * merged in order (live-feed.ts), and the owner's LogCut notices, all on core NATS.
 */
export function subscribeSession(
  src: SubscribeSource,
  sessionId: string,
  onEntry: (entry: LogEntry) => void,
  onCut?: (cut: LogCut) => void,
): Unsubscribe {
  const { nc, subjects, report } = src;
  const feed = new LiveFeed({
    read: (afterSeq, toSeq) => src.read(afterSeq, { toSeq, limit: FILL_BATCH }),
    bounds: () => src.bounds(),
    deliver: onEntry,
    report,
  });
  const feedFrom = (subject: string, take: (entry: LogEntry) => void, republished = false): Subscription =>
    nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error) return report(error);
        let decoded;
        try {
          decoded = decode(msg.headers, msg.data);
        } catch (decodeError) {
          return report(decodeError);
        }
        if (decoded.kind !== 'entry') return;
        if (republished) src.stored?.({ streamSeq: Number(msg.headers?.get('Nats-Sequence')), decoded });
        take(decoded.entry);
      },
    });
  const subs = [
    feedFrom(subjects.live(sessionId), (e) => feed.stored(e), true),
    feedFrom(subjects.early(sessionId), (e) => feed.early(e)),
  ];
  if (onCut) {
    subs.push(
      nc.subscribe(subjects.cut(sessionId), {
        callback: (error, msg) => {
          if (error) return report(error);
          const cut = decodeCut(msg.data);
          if (!cut) return report(new Error('malformed log cut notice'));
          try {
            onCut(cut);
          } catch (cutError) {
            report(cutError);
          }
        },
      }),
    );
  }
  let active = true;
  return () => {
    if (!active) return;
    active = false;
    feed.dispose();
    for (const sub of subs) {
      try {
        sub.unsubscribe();
      } catch {
        // The connection is already closed: the subscription went with it.
      }
    }
  };
}
