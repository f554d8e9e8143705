/**
 * Every child process the benchmark starts is tracked here, so an error, Ctrl-C or the watchdog
 * never leaves a server (and its PTYs) running behind us.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const children = new Set<ChildProcess>();

export function spawnTracked(cmd: string, args: string[], opts: SpawnOptions): ChildProcess {
  const child = spawn(cmd, args, opts);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** SIGTERM (graceful: the service stops its sessions), then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Last resort (process exit paths): synchronous SIGKILL of whatever is left. */
export function killAllChildren(): void {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
}

/** No service outlives the driver: on exit, Ctrl-C or SIGTERM every child is killed. */
export function killChildrenOnExit(): void {
  process.on('exit', killAllChildren);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      killAllChildren();
      process.exit(130);
    });
  }
}

/** Resolves with the first stdout match of `re`; rejects on exit or timeout, with stderr's tail. */
export function waitForOutput(
  child: ChildProcess,
  re: RegExp,
  timeoutMs: number,
  what: string,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const done = (f: () => void): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onOut);
      child.off('exit', onExit);
      f();
    };
    const onOut = (d: Buffer): void => {
      out += d.toString('utf8');
      const m = re.exec(out);
      if (m) done(() => resolve(m));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      done(() =>
        reject(new Error(`${what} exited (${signal ?? code}) before it was ready: ${(err || out).trim().slice(-300)}`)),
      );
    const timer = setTimeout(
      () =>
        done(() => reject(new Error(`${what} not ready within ${timeoutMs} ms: ${(err || out).trim().slice(-300)}`))),
      timeoutMs,
    );
    child.stdout?.on('data', onOut);
    child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-2000)));
    child.on('exit', onExit);
  });
}

/**
 * Keeps the tail of a service's output and how it ended, so a service that dies mid-run is
 * reported with its last words instead of as a wave of ECONNREFUSED.
 */
export class ChildWatch {
  private tail = '';
  private ended: string | undefined;

  constructor(
    readonly child: ChildProcess,
    readonly name: string,
  ) {
    const keep = (d: Buffer): void => {
      this.tail = (this.tail + d.toString('utf8')).slice(-1500);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', (code, signal) => (this.ended = `${name} exited (${signal ?? code})`));
  }

  /** undefined while the process runs; otherwise how it ended and its last output. */
  death(): string | undefined {
    return this.ended ? `${this.ended}: ${this.tail.trim().slice(-600)}` : undefined;
  }
}
