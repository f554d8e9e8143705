/**
 * A nats-server of the test's own (loopback, JetStream, its own store dir), so a test can stop
 * and restart it. The machine's NATS on 4222 is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { freePort, waitUntil } from '@pty-ws/testkit';

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

  /**
   * `size` servers forming one JetStream cluster (routes between all of them, each its own name
   * and store); resolves once every one is ready. Wait for JetStream itself with the cluster's
   * `jetStreamReady` (its meta leader is elected a moment later).
   */
  static async startCluster(size = 3): Promise<OwnNatsServer[]> {
    const name = `ptyws-test-${process.pid}`;
    const clusterPorts: number[] = [];
    const servers: OwnNatsServer[] = [];
    for (let i = 0; i < size; i++) clusterPorts.push(await freePort());
    const routes = clusterPorts.map((p) => `nats://127.0.0.1:${p}`).join(',');
    for (let i = 0; i < size; i++) {
      const storeDir = mkdtempSync(path.join(tmpdir(), `ptyws-nats-n${i + 1}-`));
      const args = ['--server_name', `n${i + 1}`, '--cluster_name', name, '--cluster'];
      args.push(`nats://127.0.0.1:${clusterPorts[i]}`, '--routes', routes, '-m', String(await freePort()));
      servers.push(new OwnNatsServer(await freePort(), storeDir, { args }));
    }
    await Promise.all(servers.map((s) => s.start()));
    return servers;
  }

  /** Names of the clients connected to this server now (from its monitoring port; cluster members only). */
  async clientNames(): Promise<string[]> {
    const body = (await this.monitor('connz?limit=1024')) as { connections?: { name?: string }[] };
    return (body.connections ?? []).map((c) => c.name ?? '');
  }

  /** The server the JetStream meta leader runs on, as this one knows it (cluster members only). */
  async metaLeader(): Promise<string | undefined> {
    return ((await this.monitor('jsz')) as { meta_cluster?: { leader?: string } }).meta_cluster?.leader;
  }

  private async monitor(endpoint: string): Promise<unknown> {
    const i = this.extraArgs.indexOf('-m');
    if (i < 0) throw new Error('this nats-server has no monitoring port');
    return (await fetch(`http://127.0.0.1:${this.extraArgs[i + 1]}/${endpoint}`)).json();
  }

  /** The server's name in a cluster (`n1`, …), as JetStream's stream info names its leader. */
  get serverName(): string | undefined {
    const i = this.extraArgs.indexOf('--server_name');
    return i >= 0 ? this.extraArgs[i + 1] : undefined;
  }

  private get extraArgs(): readonly string[] {
    return this.options.args ?? [];
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
    const args = ['-a', '127.0.0.1', '-p', String(this.port), ...jetstream, ...this.extraArgs];
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

  /** Deletes everything the (stopped) server stored: it starts again as a new, empty member. */
  wipeStore(): void {
    if (this.running) throw new Error('wipeStore needs a stopped server');
    rmSync(this.storeDir, { recursive: true, force: true });
    mkdirSync(this.storeDir);
  }

  /** Stops the server and deletes its store. */
  async dispose(): Promise<void> {
    await this.stop();
    process.removeListener('exit', this.killOnExit);
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

/** Waits until a cluster's JetStream answers: its meta leader is elected a moment after the servers are up. */
export async function waitJetStreamReady(nc: NatsConnection): Promise<void> {
  const jsm = await jetstreamManager(nc, { checkAPI: false });
  await waitUntil(
    () =>
      jsm.getAccountInfo().then(
        () => true,
        () => false,
      ),
    30_000,
    'JetStream cluster ready',
    200,
  );
}
