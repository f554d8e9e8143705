import type { SerializedFrame } from './serialized-frame';

/** How much serialized history a hub keeps beyond its hot window, for catch-ups and join flushes. */
export interface RecentFramesLimits {
  frames: number;
  bytes: number;
}

/**
 * One session's most recent log frames as the hub serialized them, consecutive in sequence.
 *
 * Why: during an attach storm every join and leave appends a MembershipChanged holding the whole
 * member list, so a few of them overflow the hot window (three 80×24 screenfuls). Every joiner's
 * catch-up then re-read the log and re-serialized the same frames for itself: the profile of 200
 * connections joining one session spent half its CPU there. Frames kept here are sent as they are,
 * so each frame is serialized once per format, not once per client.
 */
export class RecentFrames {
  private frames: SerializedFrame[] = [];
  private start = 0;
  private bytes = 0;

  constructor(private readonly limits: RecentFramesLimits) {}

  /** Appends the next frame; a frame that does not follow the newest one restarts the window. */
  push(frame: SerializedFrame): void {
    const newest = this.newestSeq();
    if (newest !== undefined && frame.seq !== newest + 1) this.clear();
    this.frames.push(frame);
    this.bytes += frame.bytes;
    while (
      this.frames.length - this.start > this.limits.frames ||
      (this.bytes > this.limits.bytes && this.frames.length - this.start > 1)
    ) {
      this.bytes -= this.frames[this.start]!.bytes;
      this.frames[this.start++] = undefined as unknown as SerializedFrame; // let it be collected
    }
    // Compact now and then so the array does not grow without bound.
    if (this.start > 1024 && this.start * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.start);
      this.start = 0;
    }
  }

  /** The frame with this sequence, if it is still kept. */
  get(seq: number): SerializedFrame | undefined {
    const oldest = this.oldestSeq();
    if (oldest === undefined || seq < oldest) return undefined;
    return this.frames[this.start + (seq - oldest)];
  }

  /** Whether every frame in (afterSeq, toSeq] is kept. */
  covers(afterSeq: number, toSeq: number): boolean {
    if (toSeq <= afterSeq) return true;
    const oldest = this.oldestSeq();
    const newest = this.newestSeq();
    return oldest !== undefined && newest !== undefined && oldest <= afterSeq + 1 && newest >= toSeq;
  }

  /** Calls `each` for the kept frames in (afterSeq, toSeq], oldest first, until it returns false. */
  forEach(afterSeq: number, toSeq: number, each: (frame: SerializedFrame) => boolean | void): void {
    const oldest = this.oldestSeq();
    if (oldest === undefined) return;
    const from = this.start + Math.max(0, afterSeq + 1 - oldest);
    const to = Math.min(this.frames.length - 1, this.start + (toSeq - oldest));
    for (let i = from; i <= to; i++) if (each(this.frames[i]!) === false) return;
  }

  get size(): number {
    return this.frames.length - this.start;
  }

  private clear(): void {
    this.frames = [];
    this.start = 0;
    this.bytes = 0;
  }

  private oldestSeq(): number | undefined {
    return this.frames.length > this.start ? this.frames[this.start]!.seq : undefined;
  }

  private newestSeq(): number | undefined {
    return this.frames.length > this.start ? this.frames[this.frames.length - 1]!.seq : undefined;
  }
}
