import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { WebhookDeliverer, type PushMetrics } from '../src';

interface Received {
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A real local receiver answering with the statuses it is told, in order (then 200). */
class Receiver {
  readonly received: Received[] = [];
  statuses: number[] = [];
  private server!: Server;
  url = '';

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
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
});
