/**
 * tmux as a second terminal for keyframe fidelity tests: each pane prints a file and idles, so one
 * pane can play the stream (a client attached from the start) and another a keyframe (a client
 * attached later), and tmux itself says what state each is in (`capture-pane -e`, mode flags).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const TMUX_INSTALLED = spawnSync('tmux', ['-V']).status === 0;

/** Pane state tmux keeps beside the cells: modes, title, cursor. */
export const PANE_FLAGS = [
  'keypad_flag',
  'keypad_cursor_flag',
  'pane_title',
  'alternate_on',
  'cursor_x',
  'cursor_y',
  'cursor_flag',
  'insert_flag',
  'wrap_flag',
  'origin_flag',
  'mouse_any_flag',
  'mouse_sgr_flag',
];

export interface PaneState {
  cells: string;
  flags: string;
}

/** A private tmux server (own socket, no config) for comparing what two panes show. */
export class TmuxServer {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'ts-tmux-'));
  private readonly socket = path.join(this.dir, 'sock');
  private files = 0;

  tmux(...args: string[]): string {
    const r = spawnSync('tmux', ['-S', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  }

  /** A new cols×rows window whose pane prints `bytes` (as they are) and idles; its pane id. */
  pane(cols: number, rows: number, bytes: string | Uint8Array): string {
    const file = path.join(this.dir, `bytes-${this.files++}`);
    writeFileSync(file, bytes);
    // Raw mode: the pty passes the bytes through untranslated (no LF -> CRLF).
    const command = `stty raw -echo; cat '${file}'; exec sleep 600`;
    // A session per pane: each gets its own size (new-window cannot set one).
    return this.tmux(
      'new-session',
      '-d',
      '-P',
      '-F',
      '#{pane_id}',
      '-x',
      String(cols),
      '-y',
      String(rows),
      command,
    ).trim();
  }

  /** Cells with their attributes (capture-pane -e) and the pane flags. */
  state(pane: string): PaneState {
    const format = PANE_FLAGS.map((f) => `${f}=#{${f}}`).join(' ');
    return {
      cells: this.tmux('capture-pane', '-p', '-e', '-N', '-t', pane),
      flags: this.tmux('display', '-p', '-t', pane, format).trim(),
    };
  }

  /**
   * Once both panes have printed their file (their program is `sleep` by then), polls until they
   * agree and look the same twice in a row (tmux reads the pane output asynchronously), else
   * returns the last difference.
   */
  async converge(attached: string, fresh: string): Promise<[PaneState | undefined, PaneState | undefined]> {
    const printed = (pane: string): boolean =>
      this.tmux('display', '-p', '-t', pane, '#{pane_current_command}').trim() === 'sleep';
    let last: [PaneState | undefined, PaneState | undefined] = [undefined, undefined];
    let previous = '';
    for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!printed(attached) || !printed(fresh)) continue;
      last = [this.state(attached), this.state(fresh)];
      const now = JSON.stringify(last);
      if (JSON.stringify(last[0]) === JSON.stringify(last[1]) && now === previous) return last;
      previous = now;
    }
    return last;
  }

  dispose(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server']);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
