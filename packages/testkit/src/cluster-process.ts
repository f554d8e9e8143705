/**
 * One service of a test cluster (agent or edge) as a real child process that a fault test can
 * kill with a signal and start again with the same environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@pty-ws/config';

const ROOT = path.resolve(__dirname, '../../..');
/** Enough of a process's output to explain a failure, without growing for the whole run. */
const TAIL_CHARS = 16_384;

export interface ServiceHandle {
  readonly label: string;
  /** The current process; replaced by restart(). */
  readonly child: ChildProcess;
  /** The last stdout/stderr output of the current process (logs are on stdout). */
  output(): string;
  /** Sends `signal` (default SIGKILL) and resolves once the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the service again with the same environment; a process still running is killed first. */
  restart(): Promise<void>;
  /** SIGTERM, SIGKILL after 5 s; resolves once exited. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitExit(child: ChildProcess): Promise<void> {
  if (exited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export class ServiceProcess implements ServiceHandle {
  private current: ChildProcess | undefined;
  private tail = '';
  /** The process the test itself is ending (kill/stop/restart): its exit is no surprise. */
  private ending: ChildProcess | undefined;

  private constructor(
    readonly label: string,
    /** The program and its arguments. */
    private readonly command: readonly [string, ...string[]],
    /** Mutable so a restart can pin what the first start chose (an edge's port). */
    readonly env: Record<string, string>,
    private readonly ready: RegExp,
  ) {}

  /**
   * Spawns `script` as the npm scripts start it (SERVICE_NODE_FLAGS, SERVICE_ENV) and resolves with
   * the first output line matching `ready` (15 s budget).
   */
  static async start(
    label: string,
    script: string,
    env: Record<string, string>,
    ready: RegExp,
  ): Promise<{ service: ServiceProcess; match: RegExpMatchArray }> {
    return ServiceProcess.startCommand(
      label,
      [process.execPath, ...SERVICE_NODE_FLAGS, path.join(ROOT, script)],
      { ...SERVICE_ENV, ...env },
      ready,
    );
  }

  /** Like start(), for any command (`bash -c <a line of the README>`), run in the repository root. */
  static async startCommand(
    label: string,
    command: readonly [string, ...string[]],
    env: Record<string, string>,
    ready: RegExp,
  ): Promise<{ service: ServiceProcess; match: RegExpMatchArray }> {
    const service = new ServiceProcess(label, command, { ...env }, ready);
    const match = await service.spawn();
    return { service, match };
  }

  get child(): ChildProcess {
    if (!this.current) throw new Error(`${this.label} was never started`);
    return this.current;
  }

  output(): string {
    return this.tail;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (exited(child)) return;
    this.ending = child;
    const done = waitExit(child);
    child.kill(signal);
    await done;
  }

  async restart(): Promise<void> {
    if (this.current && !exited(this.current)) await this.kill('SIGKILL');
    await this.spawn();
  }

  async stop(): Promise<void> {
    const child = this.current;
    if (!child || exited(child)) return;
    this.ending = child;
    const done = waitExit(child);
    const hard = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.kill('SIGTERM');
    await done;
    clearTimeout(hard);
  }

  private record(text: string): void {
    this.tail = (this.tail + text).slice(-TAIL_CHARS);
    if (process.env['PTYWS_TEST_LOG_LEVEL']) process.stderr.write(`[${this.label}] ${text}`);
  }

  private spawn(): Promise<RegExpMatchArray> {
    this.tail = '';
    return new Promise((resolve, reject) => {
      const [program, ...args] = this.command;
      const child = spawn(program, args, {
        cwd: ROOT,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', ...this.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.current = child;
      let settled = false;
      let seen = '';
      const timer = setTimeout(() => fail(`did not start in 15 s`), 15_000);
      const fail = (why: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`${this.label} ${why}\n${this.tail}`));
      };
      // Both pipes are read for the whole life of the process: a full pipe would block its writes.
      child.stdout?.on('data', (d: Buffer) => {
        const text = d.toString();
        this.record(text);
        if (settled) return;
        seen += text;
        const m = seen.match(this.ready);
        if (m) {
          settled = true;
          clearTimeout(timer);
          resolve(m);
        }
      });
      child.stderr?.on('data', (d: Buffer) => this.record(d.toString()));
      child.on('exit', (code, signal) => {
        const wasReady = settled;
        fail(`exited (${signal ?? code}) before it was ready`);
        // A service that dies under a test shows up there only as closed sockets (1006): say so,
        // with its last output, where the test run's log shows it.
        if (wasReady && this.ending !== child) {
          process.stderr.write(
            `[${this.label}] exited unexpectedly (${signal ?? code}); its last output:\n${this.tail}\n`,
          );
        }
      });
    });
  }
}
