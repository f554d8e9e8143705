import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MemoryPushOutbox } from '@pty-ws/adapters-memory';
import { WebhookDeliverer, type PushMetrics } from '../src';

interface Received {
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A real local receiver answering with the statuses it is told, in order (then 200). */
class Receiver {
  readonly received: Received[] = [];
  statuses: number[] = [];
  /** Runs before each answer (the deliverer is waiting for it then). */
  beforeAnswer: (() => Promise<void>) | undefined;
  private server!: Server;
  url = '';

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        this.received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        await this.beforeAnswer?.();
        res.statusCode = this.statuses.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', resolve);
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function counters(): PushMetrics & { counts: Record<string, number> } {
  const counts = { delivered: 0, retried: 0, failed: 0 };
  return {
    counts,
    delivered: () => void counts.delivered++,
    retried: () => void counts.retried++,
    failed: () => void counts.failed++,
  };
}

describe('WebhookDeliverer', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(() => receiver.stop());

  const target = () => ({ taskId: 't1', configId: 'c1', url: receiver.url });

  it('POSTs the JSON body with the authentication header and the notification token', async () => {
    const metrics = counters();
    const d = new WebhookDeliverer({ attempts: 3, initialBackoffMs: 10, maxBackoffMs: 50, timeoutMs: 2000, metrics });
    d.enqueue(
      { ...target(), token: 'tok-123', authentication: { scheme: 'Bearer', credentials: 'hook-secret' } },
      { status_update: { task_id: 't1' } },
    );
    await d.idle();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.body).toEqual({ status_update: { task_id: 't1' } });
    expect(got!.headers['authorization']).toBe('Bearer hook-secret');
    expect(got!.headers['x-a2a-notification-token']).toBe('tok-123');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(metrics.counts).toEqual({ delivered: 1, retried: 0, failed: 0 });
  });

  it('retries after 5xx until the receiver accepts (at least once)', async () => {
    receiver.statuses = [503, 500];
    const metrics = counters();
    const d = new WebhookDeliverer({ attempts: 5, initialBackoffMs: 10, maxBackoffMs: 50, timeoutMs: 2000, metrics });
    d.enqueue(target(), { n: 1 });
    await d.idle();
    expect(receiver.received.map((r) => r.body)).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    expect(metrics.counts).toEqual({ delivered: 1, retried: 2, failed: 0 });
  });

  it('keeps the order of one config while an earlier notification is retried', async () => {
    receiver.statuses = [502];
    const d = new WebhookDeliverer({ attempts: 4, initialBackoffMs: 20, maxBackoffMs: 50, timeoutMs: 2000 });
    d.enqueue(target(), { n: 1 });
    d.enqueue(target(), { n: 2 });
    d.enqueue(target(), { n: 3 });
    await d.idle();
    expect(receiver.received.map((r) => r.body)).toEqual([{ n: 1 }, { n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('retries when the receiver is not listening yet, then delivers', async () => {
    const url = receiver.url;
    await receiver.stop();
    const metrics = counters();
    const d = new WebhookDeliverer({ attempts: 6, initialBackoffMs: 100, maxBackoffMs: 200, timeoutMs: 2000, metrics });
    d.enqueue({ taskId: 't1', configId: 'c1', url }, { n: 1 });
    // The first attempt finds nothing listening; a receiver comes up on that port during the backoff.
    while (metrics.counts.retried === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    receiver = new Receiver();
    await receiver.start(Number(new URL(url).port));
    await d.idle();
    expect(receiver.received.map((r) => r.body)).toEqual([{ n: 1 }]);
    expect(metrics.counts).toEqual({ delivered: 1, retried: 1, failed: 0 });
  });

  it('gives up at once on a 4xx the receiver means, and after the last attempt on 5xx', async () => {
    receiver.statuses = [404, 500, 500];
    const metrics = counters();
    const d = new WebhookDeliverer({ attempts: 2, initialBackoffMs: 10, maxBackoffMs: 50, timeoutMs: 2000, metrics });
    d.enqueue({ ...target(), configId: 'a' }, { n: 1 });
    await d.idle();
    d.enqueue({ ...target(), configId: 'b' }, { n: 2 });
    await d.idle();
    expect(receiver.received.map((r) => r.body)).toEqual([{ n: 1 }, { n: 2 }, { n: 2 }]);
    expect(metrics.counts).toEqual({ delivered: 0, retried: 1, failed: 2 });
  });

  it('with an outbox: stored before the first attempt, deleted after success or give-up', async () => {
    const store = new MemoryPushOutbox();
    receiver.statuses = [404];
    const d = new WebhookDeliverer({
      attempts: 2,
      initialBackoffMs: 10,
      maxBackoffMs: 50,
      timeoutMs: 2000,
      outbox: { store, owner: 'agent-1' },
    });
    const seen: string[][] = [];
    receiver.beforeAnswer = async () => {
      seen.push((await store.pending('agent-1')).map((e) => `${e.configId} ${e.body} ${e.token ?? '-'}`));
    };
    d.enqueue({ ...target(), configId: 'refused' }, { n: 1 });
    d.enqueue({ ...target(), token: 'tok' }, { n: 2 });
    await d.idle();
    // While a notification is being attempted it is in the outbox (both of them, the first time).
    for (const s of seen) expect(s.length).toBeGreaterThan(0);
    expect(seen.flat()).toEqual(expect.arrayContaining(['refused {"n":1} -', 'c1 {"n":2} tok']));
    expect(receiver.received).toHaveLength(2);
    expect(await store.pending('agent-1')).toEqual([]);
  });

  it('what a stopped deliverer did not deliver is resumed, in order, by the next one of the owner', async () => {
    const url = receiver.url;
    await receiver.stop();
    const store = new MemoryPushOutbox();
    const opts = { attempts: 50, initialBackoffMs: 20, maxBackoffMs: 50, timeoutMs: 2000 };
    const first = new WebhookDeliverer({ ...opts, outbox: { store, owner: 'agent-1' } });
    first.enqueue({ taskId: 't1', configId: 'c1', url }, { n: 1 });
    first.enqueue({ taskId: 't1', configId: 'c1', url }, { n: 2 });
    await first.drain(200); // nobody listens: nothing delivered
    expect((await store.pending('agent-1')).map((e) => e.body)).toEqual(['{"n":1}', '{"n":2}']);

    receiver = new Receiver();
    await receiver.start(Number(new URL(url).port));
    const other = new WebhookDeliverer({ ...opts, outbox: { store, owner: 'agent-2' } });
    expect(await other.resume()).toBe(0); // not its notifications
    let pending = 0;
    const metrics = { delivered() {}, retried() {}, failed() {}, pending: (d: number) => void (pending += d) };
    const second = new WebhookDeliverer({ ...opts, metrics, outbox: { store, owner: 'agent-1' } });
    expect(await second.resume()).toBe(2);
    expect(pending).toBe(2); // ptyws_push_notifications_pending
    await second.idle();
    expect(pending).toBe(0);
    expect(receiver.received.map((r) => r.body)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await store.pending('agent-1')).toEqual([]);
  });
});
