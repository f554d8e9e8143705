import { connect, type NatsConnection } from '@nats-io/transport-node';
import { batchWritesPerTurn } from '../src/write-batching';
import { NATS_URL, connectForTest, runNames } from './nats-fixture';

/** Counts the socket writes of a connection (nats.js 3: `nc.protocol.transport.socket`). */
function countWrites(nc: NatsConnection): () => number {
  const socket = (nc as unknown as { protocol: { transport: { socket: { write: (...a: unknown[]) => boolean } } } })
    .protocol.transport.socket;
  let writes = 0;
  const write = socket.write.bind(socket);
  socket.write = (...args: unknown[]) => {
    writes++;
    return write(...args);
  };
  return () => writes;
}

/** `n` publishes, each from its own timer callback: separate callbacks of one event-loop turn. */
async function publishFromCallbacks(nc: NatsConnection, subject: string, n: number): Promise<void> {
  await new Promise<void>((resolve) => {
    let left = n;
    for (let i = 0; i < n; i++) {
      setTimeout(() => {
        nc.publish(subject, String(i));
        if (--left === 0) resolve();
      }, 0);
    }
  });
}

async function receive(sub: AsyncIterable<{ string(): string }>, n: number): Promise<string[]> {
  const got: string[] = [];
  for await (const m of sub) {
    got.push(m.string());
    if (got.length === n) break;
  }
  return got;
}

describe('batchWritesPerTurn', () => {
  let reader: NatsConnection;
  beforeAll(async () => {
    reader = await connect({ servers: NATS_URL });
  });
  afterAll(() => reader.close());

  it('writes what one turn’s callbacks publish in one socket write, every message in order', async () => {
    const subject = `${runNames().prefix}.batched`;
    const sub = reader.subscribe(subject);
    await reader.flush();
    const plain = await connect({ servers: NATS_URL });
    const batched = await connectForTest(); // connectNats: batched
    try {
      const plainWrites = countWrites(plain);
      const batchedWrites = countWrites(batched);
      const arriving = receive(sub, 100);
      await publishFromCallbacks(plain, subject, 50);
      await plain.flush();
      await publishFromCallbacks(batched, subject, 50);
      await batched.flush();
      const expected = [
        ...Array.from({ length: 50 }, (_, i) => String(i)),
        ...Array.from({ length: 50 }, (_, i) => String(i)),
      ];
      expect(await arriving).toEqual(expected);
      // The library writes once per callback; batched, the turn's 50 publishes share a write.
      expect(plainWrites()).toBeGreaterThanOrEqual(50);
      expect(batchedWrites()).toBeLessThanOrEqual(3);
    } finally {
      await plain.close();
      await batched.close();
    }
  });

  it('sends everything published before a drain (how the services close) or a flush', async () => {
    const subject = `${runNames().prefix}.close`;
    const sub = reader.subscribe(subject);
    await reader.flush();
    const nc = await connect({ servers: NATS_URL });
    batchWritesPerTurn(nc);
    const arriving = receive(sub, 4);
    nc.publish(subject, 'a');
    nc.publish(subject, 'b');
    await nc.flush(); // in the same turn: nothing had been written yet
    nc.publish(subject, 'c');
    nc.publish(subject, 'd');
    await nc.drain();
    expect(await arriving).toEqual(['a', 'b', 'c', 'd']);
  });

  it('still writes a buffer past nats.js’s pending limit at once, without waiting for the turn to end', async () => {
    const subject = `${runNames().prefix}.big`;
    const sub = reader.subscribe(subject);
    await reader.flush();
    const nc = await connectForTest();
    try {
      const writes = countWrites(nc);
      const arriving = receive(sub, 1);
      nc.publish(subject, new Uint8Array(64 * 1024).fill(65)); // over the 32 KiB limit
      await Promise.resolve(); // the microtask nats.js flushes in; no setImmediate has run yet
      expect(writes()).toBe(1);
      expect(await arriving).toEqual(['A'.repeat(64 * 1024)]);
    } finally {
      await nc.close();
    }
  });

  it('leaves a connection whose internals it does not know as it is', () => {
    const foreign = { protocol: undefined } as unknown as NatsConnection;
    expect(() => batchWritesPerTurn(foreign)).not.toThrow();
  });

  it('is how the services connect, without async stack traces on every request', async () => {
    const nc = await connectForTest();
    try {
      const protocol = (nc as unknown as { protocol: { options: { noAsyncTraces?: boolean } } }).protocol;
      expect(protocol.options.noAsyncTraces).toBe(true);
      const writes = countWrites(nc);
      await publishFromCallbacks(nc, `${runNames().prefix}.services`, 20);
      await nc.flush();
      expect(writes()).toBeLessThanOrEqual(3);
    } finally {
      await nc.close();
    }
  });
});
