/**
 * Merges PTY output chunks into frames: a frame is flushed when it reaches `maxBytes` or when
 * `delayMs` has passed since its first byte. This bounds both the frame rate (not one frame per
 * byte) and the added latency (a keystroke echo waits at most `delayMs`).
 */
export class OutputCoalescer {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly maxBytes: number,
    private readonly emit: (data: Uint8Array) => void,
  ) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size >= this.maxBytes || this.delayMs === 0) {
      this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.delayMs);
    }
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.size === 0) return;
    const data = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    // Oversized merges are cut so no frame exceeds maxBytes by more than one chunk.
    for (let off = 0; off < data.length; off += this.maxBytes) {
      this.emit(data.subarray(off, Math.min(off + this.maxBytes, data.length)));
    }
  }
}
