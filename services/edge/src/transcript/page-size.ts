/**
 * Frames to read per round trip so a page carries about PAGE_BYTES of output: frames run from a
 * few bytes to PTYWS_OUTPUT_FRAME_BYTES, so a fixed frame count would be kilobytes or gigabytes.
 * The next page's count follows the mean frame size seen so far, within PAGE_FRAMES.
 */
const PAGE_BYTES = 2 * 1024 * 1024;
const PAGE_FRAMES = { first: 64, min: 4, max: 2048 };

export class PageSize {
  private bytes = 0;
  private frames = 0;
  /** Frames to ask for next. */
  next: number;

  /** `first`: frames of the first page, before any size is known (fewer: a smaller first page at most). */
  constructor(first = PAGE_FRAMES.first) {
    this.next = first;
  }

  /** Counts one output frame of `byteLength` bytes read. */
  saw(byteLength: number): void {
    this.bytes += byteLength;
    this.frames++;
  }

  /** Sets `next` from what was seen (call after each page). */
  adjust(): void {
    const mean = this.bytes / Math.max(1, this.frames);
    this.next = Math.round(Math.min(PAGE_FRAMES.max, Math.max(PAGE_FRAMES.min, PAGE_BYTES / Math.max(1, mean))));
  }
}

/** Lets timers, sockets and other requests run between pages (an in-memory log answers at once). */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
