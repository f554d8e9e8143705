import { entryWeight } from '@pty-ws/ports';
import type { Located } from './subject-reader';

/** What this process keeps of all sessions' entries together; the least recently used session goes first. */
const TOTAL_BYTES = 16 * 1024 * 1024;
/** What one session keeps: about a default replay window of small frames; its oldest entries go first. */
const SESSION_BYTES = 4 * 1024 * 1024;
/** Bookkeeping per entry beside its own weight (the map slot, the entry object, its headers' strings). */
const ENTRY_OVERHEAD = 160;

interface SessionEntries {
  bySeq: Map<number, Located>;
  bytes: number;
  /** Lowest sequence that may still be held: eviction walks up from here. */
  low: number;
}

/**
 * Log messages this process has seen (read, or delivered by the stream's republish), by session
 * subject and sequence, shared by every reader here: replays and catch-ups of a session read from
 * the stream only what no reader here has seen yet. A stored entry never changes (one writer, no
 * gaps; a trim only removes), so a cached one is always right; reads take their bounds from the
 * stream first, so nothing trimmed is served. Positions (stream sequences) are kept too: they
 * bound where the entries still missing can be (range-read.ts).
 */
export class EntryCache {
  private readonly sessions = new Map<string, SessionEntries>();
  private bytes = 0;

  get(subject: string, seq: number): Located | undefined {
    return this.sessions.get(subject)?.bySeq.get(seq);
  }

  /** Marks the session as just used (eviction goes by least recent use). */
  touch(subject: string): void {
    const s = this.sessions.get(subject);
    if (!s) return;
    this.sessions.delete(subject);
    this.sessions.set(subject, s);
  }

  put(subject: string, m: Located): void {
    if (m.decoded.kind !== 'entry' || !Number.isInteger(m.streamSeq) || m.streamSeq <= 0) return;
    const seq = m.decoded.entry.seq;
    let s = this.sessions.get(subject);
    if (!s) {
      s = { bySeq: new Map(), bytes: 0, low: seq };
      this.sessions.set(subject, s);
    }
    if (s.bySeq.has(seq)) return;
    const weight = entryWeight(m.decoded.entry) + ENTRY_OVERHEAD;
    s.bySeq.set(seq, m);
    s.bytes += weight;
    this.bytes += weight;
    s.low = Math.min(s.low, seq);
    while (s.bytes > SESSION_BYTES && s.bySeq.size > 1) this.dropLowest(s);
    for (const [other, entries] of this.sessions) {
      if (this.bytes <= TOTAL_BYTES) break;
      if (other !== subject) this.drop(other, entries);
    }
  }

  /** Forgets a session (its log was removed). */
  forget(subject: string): void {
    const s = this.sessions.get(subject);
    if (s) this.drop(subject, s);
  }

  private drop(subject: string, s: SessionEntries): void {
    this.bytes -= s.bytes;
    this.sessions.delete(subject);
  }

  private dropLowest(s: SessionEntries): void {
    for (;;) {
      const m = s.bySeq.get(s.low);
      if (m) {
        s.bySeq.delete(s.low++);
        const weight = (m.decoded.kind === 'entry' ? entryWeight(m.decoded.entry) : 0) + ENTRY_OVERHEAD;
        s.bytes -= weight;
        this.bytes -= weight;
        return;
      }
      s.low++;
    }
  }
}
