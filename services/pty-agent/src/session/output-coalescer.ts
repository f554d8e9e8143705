import { allocOutputBytes, outputBytesPrefix } from '@pty-ws/protocol';

/**
 * Merges PTY output chunks into frames, latency first.
 *
 * A fixed window made every keystroke echo wait it out (5 ms of a 5.7 ms echo). Now output that
 * follows a quiet period (nothing flushed for `maxDelayMs`) goes out in the same turn of the event
 * loop (setImmediate, so chunks read in that turn still join it). Only while output keeps coming
 * does a window open, sized by the observed rate: the previous frame's size stands for the bytes
 * one window gathers, so one-byte echoes never wait and a stream reaches the full `maxDelayMs`
 * within a frame or two. `maxBytes` flushes at once and cuts frames, whatever the window.
 */
export class OutputCoalescer {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** performance.now() of the last flush that emitted bytes; -Infinity: never (quiet). */
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  /** Bytes of the last frame emitted (what one window gathered at the current rate). */
  private lastFrameBytes = 0;

  constructor(
    private readonly maxDelayMs: number,
    private readonly maxBytes: number,
    private readonly emit: (data: Uint8Array) => void,
  ) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size >= this.maxBytes || this.maxDelayMs === 0) return this.flush();
    if (this.timer || this.immediate) return;
    const window = this.window(performance.now());
    if (window < MIN_TIMER_MS) this.immediate = setImmediate(() => this.flush());
    else this.timer = setTimeout(() => this.flush(), window);
  }

  /** How long the frame now starting may gather more output. */
  private window(now: number): number {
    if (now - this.lastFlushAt >= this.maxDelayMs) return 0; // after quiet: at once
    return this.maxDelayMs * Math.min(1, this.lastFrameBytes / (this.maxBytes * FULL_WINDOW_FRACTION));
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.immediate) {
      clearImmediate(this.immediate);
      this.immediate = undefined;
    }
    if (this.size === 0) return;
    const data = this.chunks.length === 1 ? this.chunks[0]! : merge(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    this.lastFlushAt = performance.now();
    this.lastFrameBytes = data.length;
    // Oversized merges are cut so no frame exceeds maxBytes by more than one chunk.
    if (data.length <= this.maxBytes) return this.emit(data);
    this.emit(outputBytesPrefix(data, this.maxBytes));
    for (let off = this.maxBytes; off < data.length; off += this.maxBytes) {
      this.emit(data.subarray(off, Math.min(off + this.maxBytes, data.length)));
    }
  }
}

/** The chunks in one buffer with room for the binary frame header (the hub frames it in place). */
function merge(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const data = allocOutputBytes(size, Buffer.allocUnsafe); // no zero fill: copied over at once
  let at = 0;
  for (const c of chunks) {
    data.set(c, at);
    at += c.length;
  }
  return data;
}

/** Windows shorter than this are not worth a timer (whose resolution is ~1 ms): next turn instead. */
const MIN_TIMER_MS = 0.5;
/** A previous frame of this fraction of `maxBytes` opens the full window: output is streaming. */
const FULL_WINDOW_FRACTION = 1 / 8;
