/**
 * TerminalState's own FIFO of output chunks not yet handed to xterm.js. Holding them back (instead
 * of handing each write over at once) is what lets skipGate.ts drop a flood's scrolled-out prefix
 * before xterm parses it. Each chunk keeps its `onParsed` callback, which must still run in order
 * once the chunk is parsed or skipped.
 */
export interface QueuedChunk {
  data: Uint8Array;
  readonly onParsed: (() => void) | undefined;
}

export class WriteQueue {
  private chunks: QueuedChunk[] = [];
  private head = 0;
  private queuedBytes = 0;

  get bytes(): number {
    return this.queuedBytes;
  }

  get empty(): boolean {
    return this.head === this.chunks.length;
  }

  push(data: Uint8Array, onParsed: (() => void) | undefined): void {
    this.chunks.push({ data, onParsed });
    this.queuedBytes += data.length;
  }

  /** The queued chunks, oldest first (a view: valid until the next push or shift). */
  pending(): readonly QueuedChunk[] {
    if (this.head > 0) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
    return this.chunks;
  }

  shift(): QueuedChunk | undefined {
    if (this.empty) return undefined;
    const chunk = this.chunks[this.head++];
    if (chunk === undefined) return undefined;
    this.queuedBytes -= chunk.data.length;
    if (this.empty) {
      this.chunks = [];
      this.head = 0;
    }
    return chunk;
  }

  /** Drops the first `count` bytes of the oldest chunk (never all of them). */
  trimHead(count: number): void {
    const chunk = this.chunks[this.head];
    if (chunk === undefined || count <= 0 || count >= chunk.data.length)
      throw new RangeError(`cannot trim ${count} bytes of the head chunk`);
    chunk.data = chunk.data.subarray(count);
    this.queuedBytes -= count;
  }
}
