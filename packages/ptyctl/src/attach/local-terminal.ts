import { spawnSync } from 'node:child_process';
import type { ReadStream, WriteStream } from 'node:tty';
import { MIN_COLS, MIN_ROWS } from '@pty-ws/protocol';

/** RIS: a full reset, so a Keyframe paints onto a known clean screen (rendering spec, phase 4). */
export const FULL_RESET = '\x1bc';

/**
 * Modes a remote program may have left on, switched off at detach so the local shell is usable:
 * alternate screen, hidden cursor, mouse reporting, bracketed paste, application cursor/keypad, SGR.
 */
const RESTORE_MODES = '\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?1l\x1b>\x1b[0m';

export interface Size {
  cols: number;
  rows: number;
}

/** The local TTY: raw mode on attach, restored on every way out. */
export class LocalTerminal {
  private raw = false;

  constructor(
    readonly input: ReadStream,
    readonly output: WriteStream,
  ) {}

  /** The local size, or undefined below the 20×5 floor the server rejects (or when stdout is no TTY). */
  size(): Size | undefined {
    const { columns: cols, rows } = this.output;
    if (!this.output.isTTY || !Number.isInteger(cols) || !Number.isInteger(rows)) return undefined;
    return cols >= MIN_COLS && rows >= MIN_ROWS ? { cols, rows } : undefined;
  }

  enterRaw(): void {
    if (this.raw) return;
    this.input.setRawMode(true);
    // libuv's raw mode keeps output post-processing (OPOST|ONLCR), which turns a bare LF from the
    // remote program (curses' cursor-down) into CR LF and shifts the picture. `stty` acts on its
    // stdin, our TTY; setRawMode(false) restores the saved termios, OPOST included.
    spawnSync('stty', ['-opost'], { stdio: [this.input, 'ignore', 'ignore'] });
    this.input.resume();
    this.raw = true;
  }

  write(data: Uint8Array | string): void {
    this.output.write(data);
  }

  /** Leaves raw mode and the remote program's modes; safe to call more than once. */
  restore(): void {
    if (!this.raw) return;
    this.raw = false;
    this.output.write(RESTORE_MODES);
    this.input.setRawMode(false);
    this.input.pause();
  }
}
