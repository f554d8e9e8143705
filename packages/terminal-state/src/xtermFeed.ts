/**
 * Hands TerminalState's queued output to xterm.js, lazily, dropping what skipGate.ts proves is
 * scrolled out before anyone can see it.
 *
 * Writes wait in a WriteQueue. It is drained: LAZY_DRAIN_MS after the first write of a batch; at once when it holds more than `maxQueuedBytes`; and always, before anything else, when a
 * resize or snapshot is queued (`afterQueued`), so those see exactly the writes queued before them.
 * A prefix is skipped only when xterm has parsed everything handed to it (its state is then the
 * state at the head of the queue, see skipState.ts); otherwise a lazy drain waits for that.
 * Skipped chunks' `onParsed` run in order, through an empty xterm write.
 */
import type { Terminal } from './xterm';
import { WriteQueue } from './writeQueue';
import { requiredLineFeeds, scrolledOutPrefix } from './skipGate';
import { canSkipFromHere } from './skipState';
import { writeParsedAtOnce } from './parseAtOnce';

const EMPTY = new Uint8Array(0);

type Later = (callback: () => void) => unknown;
/**
 * How long written output may wait before a lazy drain. Not the next turn: PTY reads arrive a
 * few KiB per turn, and a skip keeps the last K lines of each drained batch (~12 KiB at 120×30),
 * so draining every turn parsed most of a flood anyway (bench: xterm still ~15 ms per MB of a
 * base64 stream). Batches gathered over this window are mostly skipped. Snapshots and resizes
 * never wait for it (they drain at once), so a keyframe is as current as before.
 */
const LAZY_DRAIN_MS = 16;
const timers = globalThis as { setTimeout?: (callback: () => void, ms: number) => { unref?: () => void } };
const later: Later = (callback) => timers.setTimeout?.(callback, LAZY_DRAIN_MS)?.unref?.();

export interface FeedOptions {
  skip: boolean;
  maxQueuedBytes: number;
  /** Lines of scrollback xterm keeps (K of skipGate.ts depends on it). */
  scrollback: number;
}

export class XtermFeed {
  private readonly queue = new WriteQueue();
  /** xterm writes handed over whose callback has not run yet. */
  private inXterm = 0;
  private scheduled = false;
  private drainWhenIdle = false;
  private closed = false;
  private skipped = 0;

  constructor(
    private readonly term: Terminal,
    private readonly opts: FeedOptions,
  ) {}

  /** Bytes dropped unparsed so far. */
  get skippedBytes(): number {
    return this.skipped;
  }

  write(data: Uint8Array, onParsed: (() => void) | undefined): void {
    this.queue.push(data, onParsed);
    if (this.queue.bytes > this.opts.maxQueuedBytes) this.drain(true);
    else this.schedule();
  }

  /**
   * Runs `action` once every write queued so far has been parsed (or skipped), before later ones:
   * at once when xterm holds nothing else (parseAtOnce.ts), else after what it holds.
   */
  afterQueued(action: () => void): void {
    this.drain(true, true);
    this.hand(
      EMPTY,
      () => {
        // xterm may still drain its buffer after close(); the terminal must not be touched then.
        if (!this.closed) action();
      },
      true,
    );
  }

  close(): void {
    this.closed = true;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    later(() => {
      this.scheduled = false;
      if (!this.closed) this.drain(false);
    });
  }

  private drain(force: boolean, atOnce = false): void {
    if (this.closed || this.queue.empty) return;
    if (this.opts.skip) {
      if (this.inXterm === 0) this.skipScrolledOut(atOnce);
      else if (!force) {
        this.drainWhenIdle = true;
        return;
      }
    }
    for (let chunk = this.queue.shift(); chunk; chunk = this.queue.shift())
      this.hand(chunk.data, chunk.onParsed, atOnce);
  }

  private skipScrolledOut(atOnce: boolean): void {
    if (!canSkipFromHere(this.term)) return;
    let drop = scrolledOutPrefix(this.queue.pending(), requiredLineFeeds(this.term.rows, this.opts.scrollback));
    this.skipped += drop;
    while (drop > 0) {
      const head = this.queue.pending()[0];
      if (head === undefined) return;
      if (head.data.length > drop) {
        this.queue.trimHead(drop);
        return;
      }
      drop -= head.data.length;
      this.queue.shift();
      if (head.onParsed) this.hand(EMPTY, head.onParsed, atOnce);
    }
  }

  private hand(data: Uint8Array, onParsed: (() => void) | undefined, atOnce = false): void {
    this.inXterm++;
    const parsed = (): void => {
      this.inXterm--;
      onParsed?.();
      if (this.inXterm === 0 && this.drainWhenIdle) {
        this.drainWhenIdle = false;
        this.schedule();
      }
    };
    if (atOnce) writeParsedAtOnce(this.term, data, parsed);
    else this.term.write(data, parsed);
  }
}
