/**
 * A nats-server of the test's own (loopback, JetStream, its own store dir), so a test can stop
 * and restart it. The machine's NATS on 4222 is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@pty-ws/testkit';

const BINARY = process.env['PTYWS_TEST_NATS_SERVER'] ?? '/usr/sbin/nats-server';

export class OwnNatsServer {
  private child: ChildProcess | undefined;
  private log = '';
  private readonly killOnExit = () => this.child?.kill('SIGKILL');

  private constructor(
    readonly port: number,
    readonly storeDir: string,
    /** More arguments (a cluster member's name and routes); `jetstream: false` serves no streams. */
    private readonly options: { args?: readonly string[]; jetstream?: boolean } = {},
  ) {
    // Safety net for a worker that dies without afterAll: never leave a server behind.
    process.once('exit', this.killOnExit);
  }

  static async start(options: { args?: readonly string[]; jetstream?: boolean } = {}): Promise<OwnNatsServer> {
    const server = new OwnNatsServer(await freePort(), mkdtempSync(path.join(tmpdir(), 'ptyws-nats-')), options);
    await server.start();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** (Re)starts on the same port and store dir; resolves once it logs that it is ready. */
  start(): Promise<void> {
    if (this.running) return Promise.resolve();
    this.log = '';
    const jetstream = this.options.jetstream === false ? [] : ['-js', '-sd', this.storeDir];
    const args = ['-a', '127.0.0.1', '-p', String(this.port), ...jetstream, ...(this.options.args ?? [])];
    const child = spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nats-server not ready in 10 s:\n${this.log}`)), 10_000);
      const onData = (d: Buffer) => {
        this.log = (this.log + d.toString()).slice(-8192);
        if (/Server is ready/.test(this.log)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited (${code}):\n${this.log}`));
      });
    });
  }

  /** Sends `signal` and waits for the process to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const hard = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.kill(signal);
    await exited;
    clearTimeout(hard);
  }

  /** Stops the server and deletes its store. */
  async dispose(): Promise<void> {
    await this.stop();
    process.removeListener('exit', this.killOnExit);
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
