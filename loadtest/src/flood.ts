/** Counts the bytes one reader receives from a flooding session until the end marker. */
import { FLOOD_END } from './programs';

const MARKER = Buffer.from(FLOOD_END, 'latin1');

export class FloodReader {
  bytes = 0;
  /** performance.now() when the end marker arrived. */
  endAt: number | undefined;
  readonly done: Promise<void>;
  private tail = Buffer.alloc(0);
  private resolveDone!: () => void;

  constructor() {
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  feed(chunk: Buffer): void {
    if (this.endAt !== undefined) return;
    this.bytes += chunk.length;
    // Only the last few bytes can hold the marker; keep a tail in case it straddles two chunks.
    const look = Buffer.concat([this.tail, chunk.subarray(Math.max(0, chunk.length - 32))]);
    if (look.includes(MARKER)) {
      this.endAt = performance.now();
      this.resolveDone();
    } else this.tail = look.subarray(Math.max(0, look.length - MARKER.length));
  }

  /** Ends the wait without the marker (socket closed, session closed, timeout). */
  abort(): void {
    this.resolveDone();
  }
}
