/**
 * When a controller's pane changes size, tell the PTY — once per settled size, not once per pixel.
 * The rules (pty-rendering.md, #180 phases 1–2): never below 20×5 (browsers emit 0×0/1×1 mid-drag),
 * a 200 ms debounce, then the size must hold for two consecutive animation frames before it is
 * accepted; a size that moved meanwhile restarts the debounce.
 */
import { MIN_COLS, MIN_ROWS } from '@pty-ws/protocol';

export interface Size {
  cols: number;
  rows: number;
}

export interface ResizeSchedulerOptions {
  /** The size the pane could show now (the fit addon's proposal); undefined while unmeasurable. */
  measure: () => Size | undefined;
  /** The PTY's current size, so an unchanged size is not sent again. */
  current: () => Size | undefined;
  /** Sends the resize; returns false when it could not be sent (not joined, not a controller). */
  send: (size: Size) => boolean;
  debounceMs?: number;
}

export const RESIZE_DEBOUNCE_MS = 200;

export function sameSize(a: Size | undefined, b: Size | undefined): boolean {
  return a !== undefined && b !== undefined && a.cols === b.cols && a.rows === b.rows;
}

/** Phase 1 floor (the SDK refuses these too; checking here keeps the counters honest). */
export function aboveFloor(s: Size): boolean {
  return Number.isInteger(s.cols) && Number.isInteger(s.rows) && s.cols >= MIN_COLS && s.rows >= MIN_ROWS;
}

export class ResizeScheduler {
  /** Resizes actually sent; read by the test probe. */
  sent = 0;
  /** Settled sizes dropped for being below the floor. */
  dropped = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private frame: number | undefined;
  private readonly debounceMs: number;

  constructor(private readonly opts: ResizeSchedulerOptions) {
    this.debounceMs = opts.debounceMs ?? RESIZE_DEBOUNCE_MS;
  }

  /** A size check is scheduled (debounce or stability frames running). */
  get pending(): boolean {
    return this.timer !== undefined || this.frame !== undefined;
  }

  /** Call on every size change (ResizeObserver, role change, join): restarts the debounce. */
  request(): void {
    this.cancel();
    this.timer = setTimeout(() => this.checkStable(), this.debounceMs);
  }

  dispose(): void {
    this.cancel();
  }

  private cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.timer = undefined;
    this.frame = undefined;
  }

  private checkStable(): void {
    this.timer = undefined;
    const first = this.opts.measure();
    this.frame = requestAnimationFrame(() => {
      const second = this.opts.measure();
      this.frame = requestAnimationFrame(() => {
        this.frame = undefined;
        const third = this.opts.measure();
        if (!sameSize(first, second) || !sameSize(second, third)) return this.request();
        this.accept(third as Size);
      });
    });
  }

  private accept(size: Size): void {
    if (!aboveFloor(size)) {
      this.dropped += 1;
      return;
    }
    if (sameSize(size, this.opts.current())) return;
    if (this.opts.send(size)) this.sent += 1;
  }
}
