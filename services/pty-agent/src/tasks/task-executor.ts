import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { sessionCommand } from '../hosts/session-command';
import { HeadTail } from './head-tail';
import type { SessionIdentity } from '../hosts/session-identity';

export interface CommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  truncated: boolean;
  /** Bytes of output left out between the kept head and tail (when truncated). */
  omittedBytes?: number;
  /** The output went through the session's terminal, so its transcript holds all of it. */
  inTranscript?: boolean;
  timedOut: boolean;
  canceled: boolean;
}

export interface RunningCommand {
  result: Promise<CommandResult>;
  cancel(): void;
  /** Types into a command that waits for input (+ Enter); false when it takes none now. */
  input?(text: string, enter: boolean): boolean;
  /** Whether what is typed now would be echoed (false: a password prompt with echo off). */
  echoes?(): boolean;
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  /** Told the command's output (its visible text) as it comes, to stream it while the task runs. */
  onOutput?: (text: string) => void;
  /** Told when the command waits for input on the terminal, with the last lines it showed. */
  onInputRequired?: (prompt: string) => void;
}

/** What runs an A2A task. Pluggable so a session can run tasks elsewhere (e.g. in its live shell). */
export interface TaskExecutor {
  run(command: string, opts: RunOptions): RunningCommand;
}

/**
 * The deterministic default: the message text runs as `/bin/sh -c <text>` in the session's
 * working directory and environment, outside the PTY, in its own process group so cancel and
 * timeout reach its children too. Output (stdout+stderr interleaved) is kept up to a bound: its
 * start and its end (what matters for failures), what lies between is counted.
 */
export class ShellTaskExecutor implements TaskExecutor {
  constructor(
    private readonly timeoutMs: number,
    private readonly outputLimit: number,
    /** Who the commands run as (PTYWS_SESSION_USER), as the session's programs do. */
    private readonly identity?: SessionIdentity,
    /** Of outputLimit, the bytes kept from the output's start; the rest is its end. */
    private readonly outputHead = 0,
  ) {}

  run(command: string, opts: RunOptions): RunningCommand {
    let child: ChildProcess;
    let canceled = false;
    let timedOut = false;
    const kept = new HeadTail(this.outputLimit, this.outputHead);
    const output = () => {
      const { text, omittedBytes } = kept.result();
      return { output: text, truncated: omittedBytes > 0, omittedBytes };
    };
    const result = new Promise<CommandResult>((resolve) => {
      const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
        clearTimeout(timer);
        resolve({ exitCode, signal, ...output(), timedOut, canceled });
      };
      try {
        const { file, args } = sessionCommand(this.identity, '/bin/sh', ['-c', command]);
        child = spawn(file, args, {
          cwd: opts.cwd,
          env: opts.env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (err) {
        kept.push(Buffer.from(`failed to start: ${(err as Error).message}`));
        resolve({ exitCode: null, signal: null, ...output(), timedOut, canceled });
        return;
      }
      const keep = (b: Buffer) => kept.push(b);
      // One decoder per stream: a character split across reads is told once it is whole.
      const streamed = (decoder: StringDecoder) => (b: Buffer) => {
        keep(b);
        const text = decoder.write(b);
        if (text) opts.onOutput?.(text);
      };
      child.stdout?.on('data', streamed(new StringDecoder('utf8')));
      child.stderr?.on('data', streamed(new StringDecoder('utf8')));
      child.on('error', (err) => {
        keep(Buffer.from(`\n${err.message}\n`));
        finish(null, null);
      });
      child.on('close', (code, signal) => finish(code, signal));
      // Declared last: `finish` only runs from child events, after this line.
      const timer = setTimeout(() => {
        timedOut = true;
        this.killGroup(child, 'SIGKILL');
      }, this.timeoutMs);
    });

    return {
      result,
      cancel: () => {
        canceled = true;
        this.killGroup(child, 'SIGTERM');
        setTimeout(() => this.killGroup(child, 'SIGKILL'), 2000).unref();
      },
    };
  }

  private killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      child.kill(signal);
    }
  }
}
