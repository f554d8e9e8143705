/**
 * A session's terminal size: applied to the PTY and to the output path (mirror, Resize frame), and
 * following its controllers by the size rule (controller-sizes.ts). Kept apart from the runtime,
 * which checks who may do what; this only decides which size the session has.
 */
import type { TerminalSize } from '@pty-ws/protocol';
import { PtyFailure, type PtyProcess } from '@pty-ws/ports';
import { ControllerSizes } from './controller-sizes';
import type { SessionOutput } from './session-output';

export interface SessionGeometryOptions {
  sessionId: string;
  /** The size the session starts with (its spec's). */
  initial: TerminalSize;
  proc: Pick<PtyProcess, 'resize'>;
  output: Pick<SessionOutput, 'resized'>;
  logger: { warn(obj: object, msg: string): void };
  /** The size rule (not a Resize request) gave the session a new size. */
  followed: (size: TerminalSize) => void;
}

export class SessionGeometry {
  private size: TerminalSize;
  /** Which controller's size the session follows (controller-sizes.ts). */
  private readonly sizes = new ControllerSizes();

  constructor(private readonly o: SessionGeometryOptions) {
    this.size = { ...o.initial };
  }

  /** The PTY's size now (not a copy: the caller copies what it hands out). */
  get current(): TerminalSize {
    return this.size;
  }

  /**
   * A member joined with the size it gave, if any. Geometry only matters on the first controller's
   * join (extension: join payload); a later controller's is remembered, and applies once it types.
   */
  joined(clientId: string, size: TerminalSize | undefined, onlyController: boolean): void {
    this.sizes.joined(clientId, size);
    if (onlyController && size) {
      if (!this.sameSize(size)) this.apply(size);
      this.sizes.applied(clientId);
    }
  }

  /** A member left: its size is forgotten. */
  left(clientId: string): void {
    this.sizes.left(clientId);
  }

  /** A controller typed: the one typing sees a screen that fits it, its size first when the session has another. */
  typed(clientId: string): void {
    const fit = this.sizes.typed(clientId, this.size);
    if (fit) {
      this.apply(fit);
      this.sizes.applied(clientId);
      this.o.followed(fit);
    }
  }

  /** A controller's Resize request. */
  resize(clientId: string, size: TerminalSize): void {
    this.sizes.resized(clientId, size);
    this.apply(size);
    this.sizes.applied(clientId);
  }

  /**
   * A controller left or gave up control: when its size was the session's, the session takes the
   * size of the remaining controller active most recently. Failing to resize does not fail the leave.
   */
  controllerGone(clientId: string, remaining: readonly string[]): void {
    const next = this.sizes.controllerGone(clientId, remaining, this.size);
    if (!next) return;
    try {
      this.apply(next.size);
      this.o.followed(next.size);
    } catch (err) {
      this.o.logger.warn(
        { session_id: this.o.sessionId, err: (err as Error).message },
        "could not give the session the remaining controller's size",
      );
    }
  }

  private apply(size: TerminalSize): void {
    try {
      this.o.proc.resize(size);
    } catch (err) {
      throw new PtyFailure('PTY_RESIZE_FAILED', `resize failed: ${(err as Error).message}`);
    }
    this.size = { ...size };
    this.o.output.resized(size);
  }

  private sameSize(size: TerminalSize): boolean {
    return size.cols === this.size.cols && size.rows === this.size.rows;
  }
}
