import { StringDecoder } from 'node:string_decoder';
import type { PtyProcess } from '@pty-ws/ports';
import { foregroundJobOf } from '../shell/foreground';
import { foregroundReadsTty, terminalEchoes } from '../shell/tty-read';
import { ShellMarkParser, type ShellMark } from '../shell/shell-marks';
import type { CommandResult, RunOptions, RunningCommand, TaskExecutor } from './task-executor';
import { HeadTail } from './head-tail';
import { hasVisibleText, terminalText, withoutEolMark, type TextState } from './terminal-text';

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

const DEFAULT_READY_WAIT_MS = 10_000;
const DEFAULT_INPUT_QUIET_MS = 1000;
/** The foreground's terminal reads are looked at no more often than this. */
const INPUT_CHECK_MIN_MS = 250;
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
/** Output kept while no task runs, to learn the prompt a multiplexer drew (only its last line counts). */
const IDLE_KEEP = 4096;
const CTRL_C = Uint8Array.of(0x03);
const CR = Uint8Array.of(0x0d);
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

/** How much of the output the artifact left out. */
interface Kept {
  omittedBytes: number;
}

type ShellState = 'unknown' | 'prompt' | 'busy';

interface Typed {
  /** The typed line's first line, as its echo shows it. */
  line: string;
  /** Output from typing the line up to the D mark. */
  chunks: Buffer[];
  /** Index into chunks where the C mark came; undefined when the shell reports none. */
  startAt: number | undefined;
  /** The D mark's status once it came; output after it goes to `tail`. */
  ended: { exitCode: number | null } | undefined;
  tail: Buffer[];
  /** Text arrived after the A mark that followed D: the next prompt is being drawn. */
  promptDrawn: boolean;
  lastDataAt: number;
  /** The command waits for input on the terminal (told through onInputRequired). */
  waiting: boolean;
  /** Told the output's text as it comes (from C, or the echo's end, to D). */
  onOutput: ((text: string) => void) | undefined;
  /** Where the streamed text left off (a multiplexer's cursor moves span chunks). */
  streamed: TextState & { echoed?: boolean; decoder: StringDecoder };
  /** The D mark: the command ended; completion follows once its output has settled. */
  end(exitCode: number | null): void;
  /** Completes the task now (settled, interrupted without an answer, or the session closed). */
  done(exitCode: number | null): void;
}

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
  private typed: Typed | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly wakers = new Set<() => void>();
  /** Multiplexed: the prompt line as last drawn, to tell it from an unterminated last output line. */
  private promptLine: string | undefined;
  /** Multiplexed: output since the last A mark while no task ran (the prompt being drawn). */
  private idle = '';

  constructor(
    private readonly proc: PtyProcess,
    /** The shell the agent set up, or undefined when it set up none (tasks then fall back). */
    private readonly shell: LiveShellKind | undefined,
    private readonly fallback: TaskExecutor,
    private readonly opts: LiveShellOptions,
  ) {
    this.integrated = shell !== undefined;
    proc.onData((data) => this.onData(data));
    proc.onExit(() => {
      this.closed = true;
      this.typed?.done(null);
      this.wake();
    });
  }

  run(command: string, opts: RunOptions): RunningCommand {
    if (!this.integrated) return this.fallback.run(command, opts);
    let canceled = false;
    let timedOut = false;
    let inner: RunningCommand | undefined;
    let interrupt: (() => void) | undefined;
    let input: ((text: string, enter: boolean) => boolean) | undefined;
    const result = new Promise<CommandResult>((resolve) => {
      const ended = (exitCode: number | null, output: string, kept?: Kept) =>
        resolve({
          exitCode,
          signal: null,
          output,
          truncated: (kept?.omittedBytes ?? 0) > 0,
          timedOut,
          canceled,
          ...(kept ? { omittedBytes: kept.omittedBytes, inTranscript: true } : {}),
        });
      this.queue = this.queue.then(async () => {
        if (canceled) return ended(null, '');
        if (!(await this.prompt())) {
          if (!this.marked && !this.closed) {
            inner = this.fallback.run(command, opts);
            if (canceled) inner.cancel();
            return resolve(await inner.result);
          }
          return ended(null, this.closed ? 'the session has closed' : "the session's shell stayed busy");
        }
        const { exitCode, output, omittedBytes } = await this.type(
          command,
          opts,
          (fn) => (interrupt = fn),
          () => {
            timedOut = true;
          },
          (fn) => (input = fn),
        );
        ended(exitCode, output, { omittedBytes });
      });
    });
    return {
      result,
      cancel: () => {
        canceled = true;
        inner?.cancel();
        interrupt?.();
      },
      input: (text, enter) => input?.(text, enter) ?? false,
      echoes: () => terminalEchoes(this.proc.pid),
    };
  }

  /** Waits until the shell shows its prompt; false when it did not within the ready wait. */
  private async prompt(): Promise<boolean> {
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

  private type(
    command: string,
    opts: RunOptions,
    setInterrupt: (fn: () => void) => void,
    onTimeout: () => void,
    setInput: (fn: (text: string, enter: boolean) => boolean) => void,
  ): Promise<{ exitCode: number | null } & { output: string } & Kept> {
    return new Promise((resolve) => {
      let finished = false;
      let grace: NodeJS.Timeout | undefined;
      let again: NodeJS.Timeout | undefined;
      const interrupt = () => {
        if (finished || grace || typed.ended) return;
        this.write(CTRL_C);
        // A Ctrl-C that lands while the shell is still handing the terminal to the new job reaches
        // the shell, not the job. Repeat it only while a job holds the terminal, so a repeat can
        // never hit the next prompt (and the next task's line).
        again = setInterval(() => {
          if (!typed.ended && foregroundJobOf(this.proc.pid)) this.write(CTRL_C);
        }, INTERRUPT_REPEAT_MS);
        again.unref();
        // A shell that does not come back after Ctrl-C still ends the task. With no job holding the
        // terminal, the Ctrl-C hit the shell before it had read the line (bash then redraws no
        // prompt): an empty line makes it show one, so the next task is not left waiting.
        grace = setTimeout(() => {
          if (!foregroundJobOf(this.proc.pid)) this.write(CR);
          typed.done(null);
        }, INTERRUPT_GRACE_MS);
        grace.unref();
      };
      const timer = setTimeout(() => {
        onTimeout();
        interrupt();
      }, this.opts.timeoutMs);
      timer.unref();
      let settle: NodeJS.Timeout | undefined;
      const typed: Typed = {
        line: command.split('\n')[0]!.trim(),
        chunks: [],
        startAt: undefined,
        ended: undefined,
        tail: [],
        promptDrawn: false,
        lastDataAt: Date.now(),
        onOutput: opts.onOutput,
        waiting: false,
        streamed: { decoder: new StringDecoder('utf8') },
        end: (exitCode) => {
          if (typed.ended) return;
          typed.ended = { exitCode };
          const endedAt = Date.now();
          const quietMs = this.opts.multiplexed ? MULTIPLEXED_TAIL_QUIET_MS : TAIL_QUIET_MS;
          const maxMs = this.opts.multiplexed ? MULTIPLEXED_TAIL_MAX_MS : TAIL_MAX_MS;
          const check = () => {
            const now = Date.now();
            const quiet = this.state === 'prompt' && typed.promptDrawn && now - typed.lastDataAt >= quietMs;
            if (quiet || now - endedAt >= maxMs) typed.done(exitCode);
            else settle = setTimeout(check, quietMs / 2);
          };
          check();
        },
        done: (exitCode) => {
          if (finished) return;
          finished = true;
          clearTimeout(timer);
          if (grace) clearTimeout(grace);
          if (again) clearInterval(again);
          if (settle) clearTimeout(settle);
          clearInterval(inputCheck);
          this.typed = undefined;
          resolve({ exitCode: typed.ended ? typed.ended.exitCode : exitCode, ...this.artifact(typed) });
        },
      };
      // Quiet output, the shell not back at its prompt and its foreground reading the terminal:
      // the command asks for input. Straight from the shell only: a multiplexer's own process
      // is what reads the terminal the agent holds.
      const quietMs = this.opts.inputQuietMs ?? DEFAULT_INPUT_QUIET_MS;
      const inputCheck = setInterval(
        () => {
          if (typed.ended || typed.waiting || !opts.onInputRequired || this.opts.multiplexed) return;
          if (Date.now() - typed.lastDataAt < quietMs || !foregroundReadsTty(this.proc.pid)) return;
          typed.waiting = true;
          opts.onInputRequired(lastLines(this.directOutput(typed), PROMPT_LINES));
        },
        Math.max(INPUT_CHECK_MIN_MS, quietMs / 2),
      );
      inputCheck.unref();
      setInput((text, enter) => {
        if (finished || typed.ended) return false;
        typed.waiting = false;
        typed.lastDataAt = Date.now();
        this.write(Buffer.from(enter ? `${text}\r` : text, 'utf8'));
        return true;
      });
      this.typed = typed;
      this.state = 'busy';
      setInterrupt(interrupt);
      // Several lines become one compound command: one D mark, and the last line's status.
      const line = command.includes('\n') ? `{ ${command}\n}` : command;
      this.write(CLEAR_LINE[this.shell ?? 'posix']);
      this.write(Buffer.from(`${line}\r`, 'utf8'));
    });
  }

  /** What the command printed, without the typed line's echo and the next prompt. */
  private artifact(typed: Typed): { output: string } & Kept {
    const text = this.opts.multiplexed ? this.multiplexedOutput(typed) : this.directOutput(typed);
    const kept = new HeadTail(this.opts.outputLimit, this.opts.outputHead ?? 0);
    kept.push(Buffer.from(text, 'utf8'));
    const { text: output, omittedBytes } = kept.result();
    return { output, omittedBytes };
  }

  /**
   * Straight from the shell, the output is exactly what came between the C mark (else the typed
   * line's echo) and the D mark, whether or not it ends with a newline.
   */
  private directOutput(typed: Typed): string {
    const started = typed.startAt !== undefined;
    // zsh draws its end-of-line mark before it runs the hook that sends D.
    const { raw } = withoutEolMark(Buffer.concat(typed.chunks.slice(typed.startAt ?? 0)).toString('utf8'));
    const text = terminalText(raw);
    const echoEnded = started && typed.chunks.slice(0, typed.startAt).some((c) => c.includes(0x0a));
    return echoEnded ? text : afterFirstLine(text);
  }

  /**
   * Through a multiplexer the marks come at once and the text at its next redraw, so the output
   * runs on into the next prompt: the last line is the prompt, after any unterminated output.
   */
  private multiplexedOutput(typed: Typed): string {
    const started = typed.startAt !== undefined;
    const { raw, unterminated } = withoutEolMark(Buffer.concat([...typed.chunks, ...typed.tail]).toString('utf8'));
    let text = terminalText(raw, true);
    // The marks do not tell where the typed line's echo ends (its newline may be drawn after C, or
    // as a cursor move): the output starts after the first line that shows the typed line.
    const lines = text.split('\n');
    const echo = echoEnd(lines, typed.line);
    if (echo >= 0) text = lines.slice(echo + 1).join('\n');
    else {
      // Drawn in pieces: fall back on the marks. Without a C mark the echo comes first; with one,
      // it has ended before C when a newline came before C.
      const fromC = withoutEolMark(
        Buffer.concat([...typed.chunks.slice(typed.startAt ?? 0), ...typed.tail]).toString('utf8'),
      );
      text = terminalText(fromC.raw, true);
      const echoEnded = started && typed.chunks.slice(0, typed.startAt).some((c) => c.includes(0x0a));
      if (!echoEnded) text = afterFirstLine(text);
    }
    const cut = text.lastIndexOf('\n') + 1;
    const lastLine = text.slice(cut);
    if (this.promptLine && lastLine.endsWith(this.promptLine)) {
      text = text.slice(0, text.length - this.promptLine.length);
    } else {
      // A prompt not seen before (it shows the directory, say): all of the last line is taken for it.
      if (lastLine.trim()) this.promptLine = lastLine;
      text = text.slice(0, cut);
    }
    // zsh's PROMPT_SP pads a line with spaces before the prompt; a multiplexer redraws it as a line.
    text = text.replace(/(?:^|(?<=\n)) +\n$/, '');
    // Redrawn, the padding may leave more than one line end: none of them is output.
    return unterminated ? text.replace(/(?: *\n)+$/, '') : text;
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
      else if (!this.typed) this.learnPrompt(seg.text);
      else {
        this.typed.lastDataAt = Date.now();
        // Only visible text counts as the prompt being drawn: a multiplexer's redraw starts with a
        // chunk of mode and cursor escapes alone, and the command's output may still follow it.
        if (this.typed.ended && this.state === 'prompt' && hasVisibleText(seg.text)) this.typed.promptDrawn = true;
        (this.typed.ended ? this.typed.tail : this.typed.chunks).push(seg.text);
        if (!this.typed.ended) this.stream(this.typed, seg.text);
      }
    }
  }

  private onMark(mark: ShellMark): void {
    this.marked = true;
    if (mark.kind === 'A') {
      this.state = 'prompt';
      this.idle = '';
      this.wake();
    } else if (mark.kind === 'C') {
      this.state = 'busy';
      if (this.typed && !this.typed.ended && this.typed.startAt === undefined) {
        this.typed.startAt = this.typed.chunks.length;
      }
    } else if (mark.kind === 'D') {
      this.state = 'busy'; // until the A that follows: the prompt is not drawn yet
      this.typed?.end(mark.exitCode ?? null);
    }
  }

  /**
   * Tells the output as it comes: after the C mark, or without one after the echo's newline.
   * Through a multiplexer the echo may still be drawn after C; the final artifact leaves it out.
   */
  private stream(typed: Typed, text: Buffer): void {
    if (!typed.onOutput) return;
    let raw = typed.streamed.decoder.write(text);
    if (typed.startAt === undefined && !typed.streamed.echoed) {
      const nl = raw.indexOf('\n');
      if (nl < 0) return;
      typed.streamed.echoed = true;
      raw = raw.slice(nl + 1);
    }
    const shown = terminalText(raw, this.opts.multiplexed === true, typed.streamed);
    if (shown) typed.onOutput(shown);
  }

  /** Multiplexed, between tasks: the last line drawn after the prompt's A mark is the prompt. */
  private learnPrompt(text: Buffer): void {
    if (!this.opts.multiplexed || this.state !== 'prompt') return;
    this.idle = (this.idle + text.toString('utf8')).slice(-IDLE_KEEP);
    const shown = terminalText(withoutEolMark(this.idle).raw, true);
    const line = shown.slice(shown.lastIndexOf('\n') + 1);
    if (line.trim()) this.promptLine = line;
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }
}

/** The text after its first line (the typed line's echo); empty when it has only that line. */
function afterFirstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl < 0 ? '' : text.slice(nl + 1);
}

/** Lines searched for the typed line's echo: it is drawn before the output. */
const ECHO_SEARCH_LINES = 50;

/**
 * The index of the line where the typed line's echo ends, or -1: the first run of lines that
 * shows the typed line, wrapped over as many rows as it takes.
 */
function echoEnd(lines: string[], typed: string): number {
  for (let i = 0; i < Math.min(lines.length, ECHO_SEARCH_LINES); i++) {
    let joined = '';
    for (let k = i; k < lines.length && joined.length < typed.length + 256; k++) {
      joined += lines[k];
      if (joined.includes(typed)) return k;
    }
  }
  return -1;
}

/** The last `n` non-empty lines of a text. */
function lastLines(text: string, n: number): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .join('\n');
}
