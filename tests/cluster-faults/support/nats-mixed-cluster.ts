/**
 * A NATS cluster of four of the test's own servers: an entry server without JetStream, which the
 * services connect to, and three JetStream servers that hold the streams. Killing the one that
 * holds a one-replica stream leaves every client connected and JetStream answering, with that
 * stream and nothing else gone: the outage a single server cannot show.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort, waitUntil } from '@pty-ws/testkit';
import { OwnNatsServer } from './nats-server';

export class MixedNatsCluster {
  private constructor(private readonly servers: readonly OwnNatsServer[]) {}

  /** Starts the four and resolves once JetStream answers through the entry server. */
  static async start(): Promise<MixedNatsCluster> {
    const routePorts = await Promise.all([0, 1, 2, 3].map(() => freePort()));
    const routes = routePorts.map((p) => `nats://127.0.0.1:${p}`).join(',');
    const started = await Promise.allSettled(
      routePorts.map((port, i) =>
        OwnNatsServer.start({
          jetstream: i > 0,
          args: ['-n', `n${i}`, '--cluster_name', 'ptyws', '--cluster', `nats://127.0.0.1:${port}`, '--routes', routes],
        }),
      ),
    );
    const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const cluster = new MixedNatsCluster(servers);
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await cluster.dispose();
      throw failed.reason;
    }
    try {
      const nc = await connect({ servers: cluster.url, name: 'mixed-cluster check' });
      try {
        const answers = () =>
          jetstreamManager(nc, { timeout: 1000 }).then(
            () => true,
            () => false,
          );
        await waitUntil(answers, 20_000, 'JetStream (a meta leader) answering through the entry server');
      } finally {
        await nc.close();
      }
    } catch (err) {
      await cluster.dispose();
      throw err;
    }
    return cluster;
  }

  /** The entry server's URL: no JetStream of its own, so no stream ever lives there. */
  get url(): string {
    return this.servers[0]!.url;
  }

  /** The server that holds `stream` (its leader). */
  async leaderOf(stream: string): Promise<OwnNatsServer> {
    const nc = await connect({ servers: this.url, name: 'mixed-cluster leader' });
    try {
      const info = await (await jetstreamManager(nc)).streams.info(stream);
      const name = info.cluster?.leader ?? '';
      const server = this.servers[Number(/^n(\d)$/.exec(name)?.[1] ?? NaN)];
      if (!server || name === 'n0') throw new Error(`stream ${stream} has no leader among n1..n3 (${name})`);
      return server;
    } finally {
      await nc.close();
    }
  }

  async dispose(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.dispose()));
  }
}
