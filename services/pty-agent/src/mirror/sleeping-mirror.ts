/**
 * A terminal mirror that lets go of its emulator while its session is idle. A headless xterm is
 * most of what an idle session costs its agent (~200 KB: a typed array per row, the parser's and
 * the emulator's handlers, per terminal); a session waiting at a prompt needs none of it until it
 * prints again or someone asks for its screen. After `sleepAfterMs` without a write, resize or
 * read, the mirror keeps only its screen as a keyframe (`vt100-screen-state-v1`, a few KB) and
 * disposes the emulator; the next call builds a new one from that keyframe first. A new session's
 * mirror starts asleep, with a blank screen.
 *
 * What a woken mirror lacks is the old scrollback (keyframes carry the screen only): lines pulled
 * back when the window grows are blank until new output scrolls.
 */
import type { ScreenSnapshot, ScreenView } from '@pty-ws/terminal-state';
import type { ScreenFormat } from '@pty-ws/ports';
import type { TerminalMirror } from './terminal-mirror';

export class SleepingMirror implements TerminalMirror {
  private awake: TerminalMirror | undefined;
  /** The screen as a keyframe while asleep. */
  private keyframe: string | undefined;
  private size: { cols: number; rows: number };
  /** Calls so far; the timer compares it with what it saw last time to tell idleness. */
  private activity = 0;
  private seen = -1;
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly create: (cols: number, rows: number) => TerminalMirror,
    cols: number,
    rows: number,
    private readonly sleepAfterMs: number,
  ) {
    // Born asleep: a blank screen needs no emulator until the program prints or someone reads it.
    this.size = { cols, rows };
  }

  get cols(): number {
    return this.size.cols;
  }

  get rows(): number {
    return this.size.rows;
  }

  /** True while there is no emulator (tests). */
  get asleep(): boolean {
    return this.awake === undefined && !this.disposed;
  }

  write(data: Uint8Array): void {
    this.wake()?.write(data);
  }

  resize(cols: number, rows: number): void {
    const m = this.wake();
    if (!m) return;
    m.resize(cols, rows);
    this.size = { cols, rows };
  }

  snapshot(): Promise<ScreenSnapshot> {
    return this.read((m) => m.snapshot());
  }

  screen(format: ScreenFormat): Promise<ScreenView> {
    return this.read((m) => m.screen(format));
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.awake?.dispose();
    this.awake = undefined;
    this.keyframe = undefined;
  }

  private async read<T>(read: (m: TerminalMirror) => Promise<T>): Promise<T> {
    const m = this.wake();
    if (!m) throw new Error('terminal mirror is disposed');
    this.pending++;
    try {
      return await read(m);
    } finally {
      this.pending--;
    }
  }

  /** The emulator, rebuilt from the keyframe when asleep; undefined once disposed. */
  private wake(): TerminalMirror | undefined {
    if (this.disposed) return undefined;
    this.activity++;
    if (!this.awake) {
      this.awake = this.create(this.size.cols, this.size.rows);
      if (this.keyframe) this.awake.write(Buffer.from(this.keyframe, 'utf8'));
      this.keyframe = undefined;
      this.arm();
    }
    return this.awake;
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.check(), this.sleepAfterMs);
    this.timer.unref();
  }

  /** Sleeps if nothing happened since the last check; otherwise looks again later. */
  private async check(): Promise<void> {
    const m = this.awake;
    if (!m || this.disposed) return;
    if (this.activity !== this.seen || this.pending > 0) {
      this.seen = this.activity;
      this.arm();
      return;
    }
    let shot: ScreenSnapshot;
    try {
      shot = await m.snapshot();
    } catch {
      return this.arm(); // a mirror that cannot answer keeps its emulator
    }
    // Output or a reader came while the keyframe was taken: stay awake.
    if (this.awake !== m || this.activity !== this.seen || this.disposed) return this.disposed ? undefined : this.arm();
    this.keyframe = shot.snapshot;
    this.awake = undefined;
    m.dispose();
  }
}
