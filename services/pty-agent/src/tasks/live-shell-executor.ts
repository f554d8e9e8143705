import type { PtyProcess } from '@pty-ws/ports';
import { terminalEchoes } from '../shell/tty-read';
import { ShellMarkParser, type ShellMark } from '../shell/shell-marks';
import type { CommandResult, RunOptions, RunningCommand, TaskExecutor } from './task-executor';
import { HeadTail } from './head-tail';
import { TypedCommand, type LiveShellOptions, type TypingTarget } from './live-shell-command';
import { MultiplexedPrompt, directOutput, multiplexedSoFar, type TypedOutput } from './live-shell-output';

export type { LiveShellOptions } from './live-shell-command';

const DEFAULT_READY_WAIT_MS = 10_000;
/**
 * Clears whatever a person had half-typed at the prompt, so it is not prefixed to the task:
 * readline's Ctrl-A Ctrl-K (Ctrl-U would ring the bell on an empty line), the terminal's own
 * line-kill character (Ctrl-U) for shells that read through the tty's line editing, zle's Ctrl-U.
 */
const CLEAR_LINE = {
  bash: Uint8Array.of(0x01, 0x0b),
  // zle: Ctrl-U is kill-whole-line in the emacs keymap, kill to line start in vi insert mode.
  zsh: Uint8Array.of(0x15),
  posix: Uint8Array.of(0x15),
} as const;

export type LiveShellKind = keyof typeof CLEAR_LINE;

type ShellState = 'unknown' | 'prompt' | 'busy';

/**
 * Runs a task by typing it into the session's interactive shell, so every observer sees it run.
 * Completion and exit status come from the agent-installed shell integration (OSC 133 `D;<exit>`
 * then `A` at the next prompt). One command at a time: later tasks wait for the prompt. A shell
 * that never produced a mark (not set up by the agent, or an integration its rc files undid)
 * falls back to the process executor. Cancel and timeout send Ctrl-C, which leaves the shell usable.
 */
export class LiveShellExecutor implements TaskExecutor {
  private readonly parser = new ShellMarkParser();
  private readonly integrated: boolean;
  private state: ShellState = 'unknown';
  private marked = false;
  private closed = false;
  private readonly startedAt = Date.now();
  private typed: TypedCommand | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly wakers = new Set<() => void>();
  /** Multiplexed: the prompt the multiplexer draws, told from a command's last line. */
  private readonly prompt = new MultiplexedPrompt();
  private readonly target: TypingTarget;

  constructor(
    private readonly proc: PtyProcess,
    /** The shell the agent set up, or undefined when it set up none (tasks then fall back). */
    private readonly shell: LiveShellKind | undefined,
    private readonly fallback: TaskExecutor,
    private readonly opts: LiveShellOptions,
  ) {
    this.integrated = shell !== undefined;
    // The pid is read when used: a multiplexer's program gets its own once the session started.
    this.target = {
      get pid() {
        return proc.pid;
      },
      atPrompt: () => this.state === 'prompt',
      write: (data) => this.write(data),
      soFar: (typed) => (opts.multiplexed ? multiplexedSoFar(typed) : directOutput(typed)),
    };
    proc.onData((data) => this.onData(data));
    proc.onExit(() => {
      this.closed = true;
      this.typed?.finish(null);
      this.wake();
    });
  }

  run(command: string, opts: RunOptions): RunningCommand {
    if (!this.integrated) return this.fallback.run(command, opts);
    let canceled = false;
    let timedOut = false;
    let inner: RunningCommand | undefined;
    let typed: TypedCommand | undefined;
    const result = new Promise<CommandResult>((resolve) => {
      const ended = (exitCode: number | null, output: string, omittedBytes?: number) =>
        resolve({
          exitCode,
          signal: null,
          output,
          truncated: (omittedBytes ?? 0) > 0,
          timedOut,
          canceled,
          ...(omittedBytes !== undefined ? { omittedBytes, inTranscript: true } : {}),
        });
      this.queue = this.queue.then(async () => {
        if (canceled) return ended(null, '');
        if (!(await this.promptShown())) {
          if (!this.marked && !this.closed) {
            inner = this.fallback.run(command, opts);
            if (canceled) inner.cancel();
            return resolve(await inner.result);
          }
          return ended(null, this.closed ? 'the session has closed' : "the session's shell stayed busy");
        }
        typed = this.type(command, opts, () => (timedOut = true));
        const exitCode = await typed.finished;
        this.typed = undefined;
        const { output, omittedBytes } = this.artifact(typed);
        ended(exitCode, output, omittedBytes);
      });
    });
    return {
      result,
      cancel: () => {
        canceled = true;
        inner?.cancel();
        typed?.interrupt();
      },
      input: (text, enter) => typed?.input(text, enter) ?? false,
      echoes: () => terminalEchoes(this.proc.pid),
    };
  }

  /** Waits until the shell shows its prompt; false when it did not within the ready wait. */
  private async promptShown(): Promise<boolean> {
    const wait = this.opts.readyWaitMs ?? DEFAULT_READY_WAIT_MS;
    // A shell that has been up for the whole wait without a single mark is not going to mark.
    const deadline = this.marked ? Date.now() + wait : this.startedAt + wait;
    while (this.state !== 'prompt' && !this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const waker = () => {
          clearTimeout(timer);
          this.wakers.delete(waker);
          resolve();
        };
        const timer = setTimeout(waker, left);
        this.wakers.add(waker);
      });
    }
    return !this.closed;
  }

  /** Types the command at the prompt; its TypedCommand follows it to its end. */
  private type(command: string, opts: RunOptions, onTimeout: () => void): TypedCommand {
    const typed = new TypedCommand(command, this.target, this.opts, opts, onTimeout);
    this.typed = typed;
    this.state = 'busy';
    // Several lines become one compound command: one D mark, and the last line's status.
    const line = command.includes('\n') ? `{ ${command}\n}` : command;
    this.write(CLEAR_LINE[this.shell ?? 'posix']);
    this.write(Buffer.from(`${line}\r`, 'utf8'));
    return typed;
  }

  /** What the command printed, without the typed line's echo and the next prompt. */
  private artifact(typed: TypedOutput): { output: string; omittedBytes: number } {
    const text = this.opts.multiplexed ? this.prompt.output(typed) : directOutput(typed);
    const kept = new HeadTail(this.opts.outputLimit, this.opts.outputHead ?? 0);
    kept.push(Buffer.from(text, 'utf8'));
    const { text: output, omittedBytes } = kept.result();
    return { output, omittedBytes };
  }

  private write(data: Uint8Array): void {
    try {
      this.proc.write(data);
    } catch {
      /* the session is closing; its exit ends the task */
    }
  }

  private onData(data: Uint8Array): void {
    for (const seg of this.parser.push(data)) {
      if ('mark' in seg) this.onMark(seg.mark);
      else if (this.typed && !this.typed.settled) this.typed.data(seg.text);
      // Multiplexed, between tasks: the last line drawn after the prompt's A mark is the prompt.
      else if (this.opts.multiplexed && this.state === 'prompt') this.prompt.learn(seg.text);
    }
  }

  private onMark(mark: ShellMark): void {
    this.marked = true;
    if (mark.kind === 'A') {
      this.state = 'prompt';
      this.prompt.reset();
      this.wake();
    } else if (mark.kind === 'C') {
      this.state = 'busy';
      this.typed?.started();
    } else if (mark.kind === 'D') {
      this.state = 'busy'; // until the A that follows: the prompt is not drawn yet
      this.typed?.end(mark.exitCode ?? null);
    }
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }
}
