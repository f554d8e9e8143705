import { execFile } from 'node:child_process';

export interface CommandOutput {
  /** Exit code; null when the command could not run or was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Multiplexer commands answer in milliseconds; one that hangs must not stall the agent. */
const TIMEOUT_MS = 5000;

/** Output a command may print (a multiplexer's whole history, with its SGR escapes, fits). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Runs a short control command (tmux, screen) without a shell; never rejects. */
export function runCommand(file: string, args: string[], env: Record<string, string>): Promise<CommandOutput> {
  return new Promise((resolve) => {
    const opts = { env, timeout: TIMEOUT_MS, encoding: 'utf8' as const, maxBuffer: MAX_OUTPUT_BYTES };
    execFile(file, args, opts, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Single-quotes a word for /bin/sh. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
