import { BindingError } from '@pty-ws/protocol';
import type { FrameLog, LogEntry, TranscriptArchive, Unsubscribe } from '@pty-ws/ports';
import { isClosedEntry } from '@pty-ws/ports';
import { TranscriptSource } from '../transcript/source';
import { OutputScan, type OutputHit } from './output-scan';
import type { WaitQuery } from './wait-query';

export type WaitCondition = 'match' | 'quiet' | 'timeout' | 'closed';

export interface WaitOutcome {
  condition: WaitCondition;
  match?: OutputHit;
  /** Output after this sequence was looked at. */
  fromSeq: number;
  /** The last frame looked at. */
  lastSeq: number;
  /** The session's exit code when it closed during the wait (null: killed by a signal, unknown). */
  exitCode?: number | null;
  /** The end of the output seen (escape sequences removed), and how many characters were seen. */
  output: string;
  outputChars: number;
}

export interface SessionWaitDeps {
  log: FrameLog;
  transcripts?: TranscriptArchive;
  /** Whether the session has ended (asked once the wait is subscribed: an end just before is not missed). */
  isClosed: () => Promise<boolean>;
}

/** Output characters an answer carries at most (its end). */
export const OUTPUT_CHARS = 16 * 1024;
/** Frames a `from_seq` in the past may make a wait read before it follows the live output. */
export const MAX_CATCH_UP_FRAMES = 10_000;
/** How long the line still being written waits for more output before a regex runs over it. */
const SETTLE_MS = 100;
const READ_PAGE = 256;

/**
 * One wait on a session's output: subscribes to the live frames first, then reads what lies
 * between `from_seq` and the log's head (the subscription's early frames are held meanwhile), so
 * no frame is missed or scanned twice. Ends at the first of: a match, `quiet_ms` without output,
 * the session's `Closed`, `timeout_ms`. Each frame is scanned once (output-scan.ts).
 */
export class SessionWait {
  private readonly scan: OutputScan;
  private finished = false;
  private fromSeq = 0;
  private lastSeq = 0;
  /** Live frames that arrived while the catch-up read ran; null once they flow straight through. */
  private held: LogEntry[] | null = [];
  private unsubscribe: Unsubscribe | undefined;
  private readonly timers = new Map<'timeout' | 'quiet' | 'settle', NodeJS.Timeout>();
  private resolve: (o: WaitOutcome) => void = () => undefined;
  private exitCode: number | null | undefined;

  constructor(
    private readonly sessionId: string,
    private readonly query: WaitQuery,
    private readonly deps: SessionWaitDeps,
  ) {
    this.scan = new OutputScan(query.pattern, OUTPUT_CHARS);
  }

  /** Resolves with the outcome; rejects when the catch-up cannot be read (or `from_seq` is too old). */
  run(): Promise<WaitOutcome> {
    return new Promise<WaitOutcome>((resolve, reject) => {
      this.resolve = resolve;
      this.start().catch((err: unknown) => {
        this.cancel();
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  /** The caller went away: stop following the session, answer nothing. */
  cancel(): void {
    this.finished = true;
    this.cleanUp();
  }

  private async start(): Promise<void> {
    this.unsubscribe = this.deps.log.subscribe(
      this.sessionId,
      (e) => (this.held ? this.held.push(e) : this.take(e)),
      () => this.finish('closed'),
    );
    this.arm('timeout', this.query.timeoutMs, () => this.finish('timeout'));
    const source = new TranscriptSource(this.sessionId, this.deps.log, this.deps.transcripts);
    const head = (await source.bounds()).lastSeq;
    this.fromSeq = Math.min(this.query.fromSeq ?? head, head);
    if (head - this.fromSeq > MAX_CATCH_UP_FRAMES) {
      throw new BindingError(
        'INVALID_REQUEST',
        `'from_seq' is ${head - this.fromSeq} frames back, more than ${MAX_CATCH_UP_FRAMES}: search the transcript instead`,
      );
    }
    this.lastSeq = this.fromSeq;
    if (this.query.fromSeq === undefined && head > 0) {
      // The log may already end in `Closed` while the session's record still says running.
      const last = await source.read(head - 1, head, 1);
      if (last[0] && isClosedEntry(last[0].entry)) this.closedBy(last[0].entry);
    }
    for (let after = this.fromSeq; after < head && !this.finished;) {
      const page = await source.read(after, head, READ_PAGE);
      if (page.length === 0) break; // evicted and not archived: what is left is the live output
      for (const { entry } of page) this.take(entry);
      after = page.at(-1)!.entry.seq;
    }
    if (this.finished) return;
    const held = this.held ?? [];
    this.held = null;
    for (const entry of held) this.take(entry);
    if (!this.finished && (await this.deps.isClosed())) this.finish('closed');
    if (!this.finished) this.armQuiet();
  }

  private take(entry: LogEntry): void {
    if (this.finished || entry.seq <= this.lastSeq) return;
    this.lastSeq = entry.seq;
    if (entry.type === 'output') {
      const hit = this.scan.push(entry.seq, entry.data);
      if (hit) return this.finish('match', hit);
      this.armQuiet();
      if (this.scan.hasUnfinishedLine) this.arm('settle', SETTLE_MS, () => this.settle());
    } else if (isClosedEntry(entry)) {
      this.closedBy(entry);
    }
  }

  private closedBy(closed: LogEntry): void {
    const code = closed.type === 'event' ? closed.payload['exit_code'] : undefined;
    this.exitCode = typeof code === 'number' ? code : null;
    this.finish('closed');
  }

  private settle(): void {
    const hit = this.scan.settle();
    if (hit) this.finish('match', hit);
  }

  private armQuiet(): void {
    const quietMs = this.query.quietMs;
    if (quietMs !== undefined && this.held === null) this.arm('quiet', quietMs, () => this.finish('quiet'));
  }

  private arm(name: 'timeout' | 'quiet' | 'settle', ms: number, fire: () => void): void {
    clearTimeout(this.timers.get(name));
    this.timers.set(name, setTimeout(fire, ms));
  }

  private finish(condition: WaitCondition, hit?: OutputHit): void {
    if (this.finished) return;
    // The line still being written counts at the end too (a prompt, the last line before exit).
    const match = hit ?? this.scan.settle();
    this.finished = true;
    this.cleanUp();
    const tail = this.scan.tail(OUTPUT_CHARS);
    this.resolve({
      condition: match ? 'match' : condition,
      ...(match ? { match } : {}),
      fromSeq: this.fromSeq,
      lastSeq: this.lastSeq,
      ...(this.exitCode !== undefined ? { exitCode: this.exitCode } : {}),
      output: tail.text,
      outputChars: tail.totalChars,
    });
  }

  private cleanUp(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
