import { StringDecoder } from 'node:string_decoder';
import { foregroundJobOf } from '../shell/foreground';
import { ttyReader } from '../shell/tty-read';
import type { RunOptions } from './task-executor';
import { lastLines, type TypedOutput } from './live-shell-output';
import { hasVisibleText, terminalText, type TextState } from './terminal-text';

/** The live-shell settings one typed command follows. */
export interface LiveShellOptions {
  /** A typed command is interrupted (Ctrl-C) and the task FAILED after this long. */
  timeoutMs: number;
  /** Output kept as the task's artifact: its start and its end, what lies between is counted. */
  outputLimit: number;
  /** Of outputLimit, the bytes kept from the output's start (default 0: the end only). */
  outputHead?: number;
  /** How long a task waits for the shell's prompt; past it a never-marked shell counts as not set up. */
  readyWaitMs?: number;
  /** Output quiet this long while the command reads the terminal: the task asks for input. */
  inputQuietMs?: number;
  /**
   * The shell runs inside a multiplexer (tmux, screen): its redraws lag the marks by as long as
   * the multiplexer waits to be scheduled, so the output must be quiet for longer.
   */
  multiplexed?: boolean;
}

/** The shell a command is typed into, as the command sees it. */
export interface TypingTarget {
  /** The shell's pid: through a multiplexer the pane's program, whose terminal is the pane's. */
  readonly pid: number;
  /** Whether the shell shows its prompt (the A mark after the command's D came). */
  atPrompt(): boolean;
  write(data: Uint8Array): void;
  /** The command's output so far, as text (the lines an INPUT_REQUIRED status shows). */
  soFar(typed: TypedOutput): string;
}

const DEFAULT_INPUT_QUIET_MS = 1000;
/** The foreground's terminal reads are looked at no more often than this. */
const INPUT_CHECK_MIN_MS = 250;
/**
 * The shell itself reading the terminal may be its `read` builtin or the shell back at its
 * prompt, whose marks are still on their way: through a multiplexer they come with its next
 * redraw. Such a read counts once it has lasted this long (a job reading needs no wait: the shell
 * is waiting for it, not at its prompt).
 */
const SHELL_READ_CONFIRM_MS = 0;
const MULTIPLEXED_SHELL_READ_CONFIRM_MS = 1500;
/** Lines of output an INPUT_REQUIRED status shows (the prompt and what led to it). */
const PROMPT_LINES = 5;
/** After Ctrl-C (cancel, timeout) the shell gets this long to report the command's end. */
const INTERRUPT_GRACE_MS = 3000;
const INTERRUPT_REPEAT_MS = 300;
/**
 * After the D mark the command's last output may still be on its way: a multiplexer sends the
 * marks (passthrough) at once but draws text at its next redraw, so C, D and A can all arrive
 * before the command's output is drawn. Done once the next prompt's A mark is in, text has come
 * after it (the redraw that carries the output and the prompt) and the output has been quiet
 * this long — or at the cap (a shell with an empty prompt draws nothing after A).
 */
const TAIL_QUIET_MS = 40;
const MULTIPLEXED_TAIL_QUIET_MS = 150;
const TAIL_MAX_MS = 1000;
/**
 * A multiplexer that is slow to be scheduled (a loaded host) may draw the output more than a
 * second after the marks; the cap is only reached when no prompt text is ever drawn, so waiting
 * longer costs nothing when the redraw comes.
 */
const MULTIPLEXED_TAIL_MAX_MS = 4000;
const CTRL_C = Uint8Array.of(0x03);
const CR = Uint8Array.of(0x0d);

/**
 * One command typed into the live shell, from its line to its settled end: it collects what the
 * terminal shows, streams it, asks for input when the command waits on the terminal, types the
 * answers, and interrupts it (Ctrl-C) on cancel or timeout. `finished` resolves with the D mark's
 * exit status (null when it never came).
 */
export class TypedCommand implements TypedOutput {
  readonly line: string;
  readonly chunks: Buffer[] = [];
  startAt: number | undefined;
  readonly tail: Buffer[] = [];
  /** The D mark's status once it came; output after it goes to `tail`. */
  private ended: { exitCode: number | null } | undefined;
  /** Text arrived after the A mark that followed D: the next prompt is being drawn. */
  private promptDrawn = false;
  private lastDataAt = Date.now();
  /** The command waits for input on the terminal (told through onInputRequired). */
  private waiting = false;
  /** When the shell itself was first seen reading the terminal, in the current quiet spell. */
  private shellReadSince: number | undefined;
  /** Where the streamed text left off (a multiplexer's cursor moves span chunks). */
  private readonly streamed: TextState & { echoed?: boolean; decoder: StringDecoder } = {
    decoder: new StringDecoder('utf8'),
  };
  private done = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private grace: NodeJS.Timeout | undefined;
  private resolve!: (exitCode: number | null) => void;
  readonly finished = new Promise<number | null>((resolve) => (this.resolve = resolve));

  constructor(
    command: string,
    private readonly shell: TypingTarget,
    private readonly opts: LiveShellOptions,
    private readonly run: RunOptions,
    /** Told when the command ran out of time (it is interrupted next). */
    onTimeout: () => void,
  ) {
    this.line = command.split('\n')[0]!.trim();
    this.every(() => this.checkInput(), Math.max(INPUT_CHECK_MIN_MS, this.inputQuietMs() / 2));
    this.after(() => {
      onTimeout();
      this.interrupt();
    }, opts.timeoutMs);
  }

  /** Whether the command has completed: what the terminal shows now is no longer its output. */
  get settled(): boolean {
    return this.done;
  }

  /** Output the terminal showed while the command runs (or after its D mark, its last redraw). */
  data(text: Buffer): void {
    this.lastDataAt = Date.now();
    // Only visible text counts as the prompt being drawn: a multiplexer's redraw starts with a
    // chunk of mode and cursor escapes alone, and the command's output may still follow it.
    if (this.ended && this.shell.atPrompt() && hasVisibleText(text)) this.promptDrawn = true;
    (this.ended ? this.tail : this.chunks).push(text);
    if (!this.ended) this.stream(text);
  }

  /** The C mark: the command's output starts. */
  started(): void {
    if (!this.ended && this.startAt === undefined) this.startAt = this.chunks.length;
  }

  /** The D mark: the command ended; completion follows once its output has settled. */
  end(exitCode: number | null): void {
    if (this.ended) return;
    this.ended = { exitCode };
    const endedAt = Date.now();
    const quietMs = this.opts.multiplexed ? MULTIPLEXED_TAIL_QUIET_MS : TAIL_QUIET_MS;
    const maxMs = this.opts.multiplexed ? MULTIPLEXED_TAIL_MAX_MS : TAIL_MAX_MS;
    const check = (): void => {
      const now = Date.now();
      const quiet = this.shell.atPrompt() && this.promptDrawn && now - this.lastDataAt >= quietMs;
      if (quiet || now - endedAt >= maxMs) this.finish(exitCode);
      else this.after(check, quietMs / 2);
    };
    check();
  }

  /** Completes the command now (settled, interrupted without an answer, or the session closed). */
  finish(exitCode: number | null): void {
    if (this.done) return;
    this.done = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.resolve(this.ended ? this.ended.exitCode : exitCode);
  }

  /** Types into a command that waits for input (+ Enter); false once it has ended. */
  input(text: string, enter: boolean): boolean {
    if (this.done || this.ended) return false;
    this.waiting = false;
    this.lastDataAt = Date.now();
    this.shell.write(Buffer.from(enter ? `${text}\r` : text, 'utf8'));
    return true;
  }

  /** Ctrl-C, repeated while a job holds the terminal; the command ends after a grace period regardless. */
  interrupt(): void {
    if (this.done || this.grace || this.ended) return;
    this.shell.write(CTRL_C);
    // A Ctrl-C that lands while the shell is still handing the terminal to the new job reaches
    // the shell, not the job. Repeat it only while a job holds the terminal, so a repeat can
    // never hit the next prompt (and the next task's line).
    this.every(() => {
      if (!this.ended && foregroundJobOf(this.shell.pid)) this.shell.write(CTRL_C);
    }, INTERRUPT_REPEAT_MS);
    // A shell that does not come back after Ctrl-C still ends the task. With no job holding the
    // terminal, the Ctrl-C hit the shell before it had read the line (bash then redraws no
    // prompt): an empty line makes it show one, so the next task is not left waiting.
    this.grace = this.after(() => {
      if (!foregroundJobOf(this.shell.pid)) this.shell.write(CR);
      this.finish(null);
    }, INTERRUPT_GRACE_MS);
  }

  private inputQuietMs(): number {
    return this.opts.inputQuietMs ?? DEFAULT_INPUT_QUIET_MS;
  }

  /**
   * Quiet output, the shell not back at its prompt and its foreground reading the terminal: the
   * command asks for input. Through a multiplexer the shell's pid is the pane's program, so the
   * terminal looked at is the pane's, not the one the agent's client holds.
   */
  private checkInput(): void {
    if (this.ended || this.waiting || !this.run.onInputRequired) return;
    const now = Date.now();
    const reader = now - this.lastDataAt < this.inputQuietMs() ? undefined : ttyReader(this.shell.pid);
    if (reader !== 'shell') this.shellReadSince = undefined;
    if (reader === undefined) return;
    if (reader === 'shell') {
      this.shellReadSince ??= now;
      const confirmMs = this.opts.multiplexed ? MULTIPLEXED_SHELL_READ_CONFIRM_MS : SHELL_READ_CONFIRM_MS;
      // Seen twice at least, so a prompt whose marks are being parsed right now does not count.
      if (now - this.shellReadSince < Math.max(confirmMs, 1)) return;
    }
    this.waiting = true;
    this.run.onInputRequired(lastLines(this.shell.soFar(this), PROMPT_LINES));
  }

  /**
   * Tells the output as it comes: after the C mark, or without one after the echo's newline.
   * Through a multiplexer the echo may still be drawn after C; the final artifact leaves it out.
   */
  private stream(text: Buffer): void {
    if (!this.run.onOutput) return;
    let raw = this.streamed.decoder.write(text);
    if (this.startAt === undefined && !this.streamed.echoed) {
      const nl = raw.indexOf('\n');
      if (nl < 0) return;
      this.streamed.echoed = true;
      raw = raw.slice(nl + 1);
    }
    const shown = terminalText(raw, this.opts.multiplexed === true, this.streamed);
    if (shown) this.run.onOutput(shown);
  }

  private after(fn: () => void, ms: number): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.timers.add(t);
    return t;
  }

  private every(fn: () => void, ms: number): void {
    const t = setInterval(fn, ms);
    t.unref();
    this.timers.add(t);
  }
}
