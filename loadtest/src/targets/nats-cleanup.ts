/**
 * Deletes the JetStream streams (frame log, membership KV) a cluster run created under its own
 * prefix, so repeated benchmarks do not pile data up on the shared NATS server.
 */
interface StreamInfo {
  config: { name: string; subjects?: string[] };
}
interface Jsm {
  streams: { list(): AsyncIterable<StreamInfo>; delete(name: string): Promise<boolean> };
}
interface Nc {
  close(): Promise<void>;
}

export async function deleteStreamsOf(natsServer: string, prefix: string): Promise<void> {
  // Resolved at run time: the NATS client comes with the cluster adapters, not with the driver.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { connect } = require('@nats-io/transport-node') as { connect(o: { servers: string[] }): Promise<Nc> };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { jetstreamManager } = require('@nats-io/jetstream') as { jetstreamManager(nc: Nc): Promise<Jsm> };
  // A comma-separated list is several servers: the client takes a lone string as one URL.
  const nc = await connect({ servers: natsServer.split(',').map((s) => s.trim()) });
  try {
    const jsm = await jetstreamManager(nc);
    const mine: string[] = [];
    for await (const s of jsm.streams.list()) {
      const subjects = s.config.subjects ?? [];
      if (subjects.some((x) => x.startsWith(`${prefix}.`) || x.startsWith(`$KV.${prefix}_`))) mine.push(s.config.name);
    }
    for (const name of mine) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
}
