/**
 * The per-session headless terminal: fed with every PTY output byte, it produces keyframes.
 *
 * Ordering: writes wait in our own FIFO (xtermFeed.ts), which is drained into xterm.js lazily and
 * drops a flood's provably scrolled-out prefix unparsed (skipGate.ts). xterm.js parses `write()`
 * data asynchronously through its own FIFO write buffer and runs each write's callback right after
 * that chunk is parsed, before the next chunk (WriteBuffer._innerWrite). So a resize or a snapshot
 * first drains our queue, then is queued as an empty write whose callback does the work: it sees
 * exactly the chunks queued before it and none queued after.
 */
import { createHeadlessTerminal, type HeadlessTerminal } from './xterm';
import { serializeScreenState } from './screenState';
import { XtermFeed } from './xtermFeed';
import type { ScreenFormat } from '@pty-ws/ports';
import { readScreenView, type ScreenView } from './screenView';

export interface ScreenSnapshot {
  /** `vt100-screen-state-v1`: apply with `term.reset(); term.write(snapshot)` on a cols×rows terminal. */
  snapshot: string;
  cols: number;
  rows: number;
}

export interface TerminalStateOptions {
  cols: number;
  rows: number;
  /**
   * Lines kept above the screen (default 100, minimum 1). Keyframes only carry the screen, but the
   * emulator needs some scrollback: xterm.js 6 corrupts its buffer when it reflows wrapped lines on
   * resize with scrollback 0 (the screen ends up reading past the buffer), and lines pulled back
   * from scrollback when the window grows should match what attached clients show.
   */
  scrollback?: number;
  /**
   * Called when xterm.js throws while parsing output (the rest of that chunk is skipped and the
   * session keeps going, see parserGuard.ts). Default: ignored.
   */
  onParseError?: (error: Error) => void;
  /**
   * Called for each byte or sequence xterm.js could not parse where it stood (a DEL, the bytes
   * of a binary dump) and skipped, as a terminal does. xterm.js itself prints nothing (a program
   * could otherwise flood the service's log). Default: ignored.
   */
  onMalformedInput?: () => void;
  /**
   * Drop, unparsed, the part of a plain-text flood that is provably scrolled out of the screen and
   * the scrollback before anyone can see it (skipGate.ts). Default true; false parses every byte
   * (the reference of the differential test).
   */
  skipScrolledOut?: boolean;
  /** Queued bytes past which the queue is handed to xterm.js without waiting (default 1 MiB). */
  maxQueuedBytes?: number;
}

const DEFAULT_SCROLLBACK = 100;
const DEFAULT_MAX_QUEUED_BYTES = 1024 * 1024;

function checkDimension(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}

export class TerminalState {
  private readonly headless: HeadlessTerminal;
  private readonly feed: XtermFeed;
  private queuedCols: number;
  private queuedRows: number;
  private disposed = false;
  private readonly pendingSnapshots = new Set<(reason: Error) => void>();

  constructor(opts: TerminalStateOptions) {
    checkDimension('cols', opts.cols);
    checkDimension('rows', opts.rows);
    const scrollback = opts.scrollback ?? DEFAULT_SCROLLBACK;
    if (!Number.isInteger(scrollback) || scrollback < 0)
      throw new RangeError(`scrollback must be >= 0, got ${scrollback}`);
    this.headless = createHeadlessTerminal(opts.cols, opts.rows, Math.max(scrollback, 1), opts);
    this.feed = new XtermFeed(this.headless.term, {
      skip: opts.skipScrolledOut ?? true,
      maxQueuedBytes: opts.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
      scrollback: Math.max(scrollback, 1),
    });
    this.queuedCols = opts.cols;
    this.queuedRows = opts.rows;
  }

  /** Geometry after every queued resize has been applied (what the next snapshot will report). */
  get cols(): number {
    return this.queuedCols;
  }

  get rows(): number {
    return this.queuedRows;
  }

  /** Output bytes dropped unparsed because they were scrolled out before anyone could see them. */
  get skippedBytes(): number {
    return this.feed.skippedBytes;
  }

  /**
   * Queues raw PTY bytes. xterm.js keeps its UTF-8 decoder state between writes, so a multibyte
   * character split across calls is decoded correctly. The bytes are copied because xterm holds a
   * reference until it parses them and callers (PTY readers) may reuse their buffer.
   * `onParsed` runs once xterm has parsed (or skipped) this chunk (how far behind the stream the
   * mirror is);
   * `owned`: the caller hands the bytes over (nobody reuses them), so no copy is made.
   */
  write(data: Uint8Array, onParsed?: () => void, owned = false): void {
    if (this.disposed || data.length === 0) return;
    this.feed.write(owned ? data : data.slice(), onParsed);
  }

  resize(cols: number, rows: number): void {
    checkDimension('cols', cols);
    checkDimension('rows', rows);
    if (this.disposed) return;
    this.queuedCols = cols;
    this.queuedRows = rows;
    this.afterQueued(() => this.headless.term.resize(cols, rows));
  }

  snapshot(): Promise<ScreenSnapshot> {
    // Synchronous on purpose: no later chunk can be parsed while we serialize.
    return this.readAfterQueued(() => {
      const { term, serializer, title } = this.headless;
      return { snapshot: serializeScreenState(term, serializer, title.title), cols: term.cols, rows: term.rows };
    });
  }

  /** The screen as text (screenView.ts), after every write and resize queued before this call. */
  screen(format: ScreenFormat): Promise<ScreenView> {
    return this.readAfterQueued(() => readScreenView(this.headless.term, this.headless.title.title ?? '', format));
  }

  /** Resolves with `read()` run once everything queued so far is parsed; rejected on dispose. */
  private readAfterQueued<T>(read: () => T): Promise<T> {
    if (this.disposed) return Promise.reject(new Error('TerminalState is disposed'));
    return new Promise<T>((resolve, reject) => {
      this.pendingSnapshots.add(reject);
      this.afterQueued(() => {
        this.pendingSnapshots.delete(reject);
        try {
          resolve(read());
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.feed.close();
    const error = new Error('TerminalState disposed before the snapshot was taken');
    for (const reject of this.pendingSnapshots) reject(error);
    this.pendingSnapshots.clear();
    this.headless.term.dispose();
    this.headless.release();
  }

  /** Runs `action` once every write/resize queued so far has been applied, before later ones. */
  private afterQueued(action: () => void): void {
    this.feed.afterQueued(action);
  }
}
