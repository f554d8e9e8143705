/**
 * A multiplexer (tmux) passes OSC 133 marks through at once but draws text at its next redraw,
 * and a redraw starts with a chunk of mode and cursor escapes alone. The output must still be
 * waited for: the executor completes only once visible text follows the next prompt's A mark.
 * The terminal is scripted here because the interleaving is tmux's scheduling, which a real
 * tmux under load produces only sometimes (CI saw an empty artifact after a cancel).
 */
import type { PtyExit, PtyProcess } from '@pty-ws/ports';
import { LiveShellExecutor } from '../src/tasks/live-shell-executor';
import type { TaskExecutor } from '../src/tasks/task-executor';

const osc133 = (body: string) => `\x1b]133;${body}\x07`;
const REDRAW_PREFIX = '\x1b(B\x1b[m\x1b[?12l\x1b[?25h\x1b[?1006l\x1b[1;1H\x1b[1;30r';

class ScriptedTerminal implements PtyProcess {
  readonly pid = process.pid;
  readonly written: string[] = [];
  private data: Array<(d: Uint8Array) => void> = [];
  onData(l: (d: Uint8Array) => void): void {
    this.data.push(l);
  }
  onExit(_l: (e: PtyExit) => void): void {}
  write(d: Uint8Array): void {
    this.written.push(Buffer.from(d).toString('utf8'));
  }
  resize(): void {}
  kill(): void {}
  emit(s: string): void {
    for (const l of this.data) l(Buffer.from(s, 'latin1'));
  }
}

const noFallback: TaskExecutor = {
  run: () => {
    throw new Error('the integrated shell must not fall back');
  },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('a redraw that begins with escapes alone does not end the task before its output is drawn', async () => {
  const term = new ScriptedTerminal();
  const exec = new LiveShellExecutor(term, 'bash', noFallback, {
    timeoutMs: 10_000,
    outputLimit: 65_536,
    multiplexed: true,
  });
  term.emit(`${osc133('A')}$ `);
  const running = exec.run('echo still_$((1+2))', { cwd: '/', env: {} });
  await sleep(20);
  expect(term.written.join('')).toContain('echo still_$((1+2))\r');
  // Marks first (passed through), then the redraw in two chunks, the text well after the quiet window.
  term.emit(`echo still_$((1+2))\r\n${osc133('C')}${osc133('D;0')}${osc133('A')}`);
  term.emit(REDRAW_PREFIX);
  await sleep(400);
  term.emit(`${REDRAW_PREFIX}\x1b[9;1Hstill_3\r\n$ `);
  const result = await running.result;
  expect(result.exitCode).toBe(0);
  expect(result.output).toBe('still_3\n');
});

it('a multiplexer that draws the output more than a second after the marks is still waited for', async () => {
  const term = new ScriptedTerminal();
  const exec = new LiveShellExecutor(term, 'zsh', noFallback, {
    timeoutMs: 10_000,
    outputLimit: 65_536,
    multiplexed: true,
  });
  term.emit(`${osc133('A')}% `);
  const running = exec.run('echo live_$((20+22))', { cwd: '/', env: {} });
  await sleep(20);
  term.emit(`${osc133('C')}${osc133('D;0')}${osc133('A')}`);
  await sleep(1500);
  term.emit(`${REDRAW_PREFIX}\x1b[4;3Hecho live_$((20+22))\r\nlive_42\r\n\x1b[7;1H\x1b[J\x1b[A\x1b[K% \x1b[K`);
  const result = await running.result;
  expect(result.output).toBe('live_42\n');
});
