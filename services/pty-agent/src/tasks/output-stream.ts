/** At most this many artifact updates a second per task (a flood becomes fewer, larger chunks). */
const CHUNKS_PER_SECOND = 10;

/**
 * Coalesces a running command's output into chunks, emitted at most CHUNKS_PER_SECOND times a
 * second. A chunk keeps at most `maxChars` (the newest): a flood is summarized by the final
 * artifact and the transcript, not replayed into every stream; what a chunk left out is counted.
 */
export class OutputStream {
  private pending = '';
  private skipped = 0;
  private lastAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly emit: (text: string, skippedChars: number) => void,
    private readonly maxChars: number,
  ) {}

  push(text: string): void {
    if (this.closed || text.length === 0) return;
    this.pending += text;
    if (this.pending.length > this.maxChars) {
      this.skipped += this.pending.length - this.maxChars;
      this.pending = this.pending.slice(-this.maxChars);
    }
    if (this.timer) return;
    const wait = Math.max(0, this.lastAt + 1000 / CHUNKS_PER_SECOND - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref();
  }

  /** Emits what is pending now and stops: the command ended, its final artifact follows. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  /** Emits what is pending now (before a status update that should follow it). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.pending.length === 0) return;
    const text = this.pending;
    const skipped = this.skipped;
    this.pending = '';
    this.skipped = 0;
    this.lastAt = Date.now();
    this.emit(text, skipped);
  }
}
