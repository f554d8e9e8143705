import type { PushAuthentication, PushOutbox, PushOutboxEntry, Disposable } from '@pty-ws/ports';
import { WebhookAddressRefused, type WebhookAddressPolicy } from './ssrf-guard';
import { postWebhook } from './webhook-post';

/** Where one notification goes: a stored push config's delivery fields. */
export interface WebhookTarget {
  taskId: string;
  configId: string;
  url: string;
  token?: string;
  authentication?: PushAuthentication;
}

/** Counters of the delivery outcomes (`ptyws_push_notifications_total{outcome}`). */
export interface PushMetrics {
  /** A notification the receiver accepted (2xx). */
  delivered(): void;
  /** One more attempt after a failed one. */
  retried(): void;
  /** A notification given up on: attempts exhausted, or a 4xx that retrying cannot fix. */
  failed(): void;
  /** Notifications queued or being attempted changed by `delta` (a gauge). */
  pending?(delta: number): void;
}

export interface WebhookDelivererOptions {
  /** Attempts per notification, the first included. */
  attempts: number;
  /** Wait before the second attempt; doubles per attempt. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Per attempt: connect, send and receive the status. */
  timeoutMs: number;
  metrics?: PushMetrics;
  logger?: { warn(obj: object, msg: string): void };
  /**
   * Where notifications wait until delivered or given up on, so they outlive the process;
   * `owner` (the agent id) marks this deliverer's entries, which `resume()` delivers again.
   * Absent: pending notifications are lost with the process.
   */
  outbox?: { store: PushOutbox; owner: string };
  /** Refuses loopback/private/link-local targets (SSRF), checked per attempt; absent: any address. */
  addresses?: WebhookAddressPolicy;
}

/** 408 and 429 ask to come back later; other 4xx mean the request itself is refused. */
const retryableStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * POSTs notifications to webhooks, at least once: a notification is retried with exponential
 * backoff until the receiver answers 2xx, it answers a 4xx that retrying cannot fix, or the
 * attempts run out. Notifications to one config go one at a time in the order given, so a
 * receiver sees a task's updates in order (a retried one may arrive twice: receivers dedupe by
 * task id and status timestamp). Different configs do not wait for each other.
 *
 * Headers: `Content-Type: application/json`, `Authorization: <scheme> <credentials>` when the
 * config has authentication, `X-A2A-Notification-Token` when it has a token.
 *
 * With an outbox, each notification is written there before its first attempt and deleted
 * after success or give-up; one interrupted by a stop or a crash stays and is delivered again
 * (attempts counted afresh) by `resume()` of the next deliverer with the same owner.
 */
export class WebhookDeliverer implements Disposable {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  /** Queued or being attempted (the pending gauge). */
  private pendingCount = 0;

  constructor(private readonly opts: WebhookDelivererOptions) {}

  /** Outbox writes, one at a time so they keep the order of `enqueue` calls. */
  private writes: Promise<unknown> = Promise.resolve();

  /** Queues `body` for `target`; never throws (failures are logged and counted). */
  enqueue(target: WebhookTarget, body: unknown): void {
    if (this.stopped) return;
    const text = JSON.stringify(body);
    const stored = this.store(target, text);
    this.chain(target, async () => this.deliver(target, text, await stored));
  }

  /**
   * Delivers again what the outbox holds for this owner (a previous process's notifications,
   * in their order); resolves once they are queued. Call once, at start.
   */
  async resume(): Promise<number> {
    const outbox = this.opts.outbox;
    if (!outbox) return 0;
    const entries = await outbox.store.pending(outbox.owner);
    for (const e of entries) this.chain(targetOf(e), () => this.deliver(targetOf(e), e.body, e.id));
    return entries.length;
  }

  private chain(target: WebhookTarget, step: () => Promise<void>): void {
    const key = `${target.taskId}\u0000${target.configId}`;
    const previous = this.chains.get(key) ?? Promise.resolve();
    this.countPending(1);
    const next = previous
      .then(step)
      .catch((err: unknown) =>
        this.opts.logger?.warn({ task_id: target.taskId, err: (err as Error).message }, 'push delivery failed'),
      )
      .finally(() => {
        if (!this.stopped) this.countPending(-1);
      });
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  /** The outbox id of the stored notification; undefined without an outbox or when it failed. */
  private store(target: WebhookTarget, body: string): Promise<string | undefined> {
    const outbox = this.opts.outbox;
    if (!outbox) return Promise.resolve(undefined);
    const add = this.writes.then(() =>
      outbox.store.add({
        owner: outbox.owner,
        taskId: target.taskId,
        configId: target.configId,
        url: target.url,
        ...(target.token !== undefined ? { token: target.token } : {}),
        ...(target.authentication ? { authentication: target.authentication } : {}),
        body,
        createdAt: Date.now(),
      }),
    );
    this.writes = add.catch(() => undefined);
    return add.catch((err: unknown) => {
      // Still delivered now; only a crash before it succeeds would lose it.
      this.opts.logger?.warn(
        { task_id: target.taskId, err: (err as Error).message },
        'push outbox write failed; delivering without it',
      );
      return undefined;
    });
  }

  private countPending(delta: number): void {
    this.pendingCount += delta;
    this.opts.metrics?.pending?.(delta);
  }

  private async settled(id: string | undefined): Promise<void> {
    if (id === undefined || !this.opts.outbox) return;
    await this.opts.outbox.store
      .remove(id)
      .catch((err: unknown) =>
        this.opts.logger?.warn({ err: (err as Error).message }, 'push outbox delete failed (sent again on restart)'),
      );
  }

  /** Resolves once everything queued so far has been delivered or given up on. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  /** Shutdown: lets queued notifications go out for up to `ms`, then stops. */
  async drain(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    this.dispose();
  }

  /** Drops what is queued and cancels pending retries (shutdown). */
  dispose(): void {
    if (!this.stopped) this.countPending(-this.pendingCount); // the rest waits in the outbox
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async deliver(target: WebhookTarget, body: string, outboxId: string | undefined): Promise<void> {
    const { attempts, initialBackoffMs, maxBackoffMs } = this.opts;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (this.stopped) return; // stays in the outbox for the next process
      if (attempt > 1) {
        this.opts.metrics?.retried();
        await this.sleep(Math.min(maxBackoffMs, initialBackoffMs * 2 ** (attempt - 2)));
        if (this.stopped) return;
      }
      const outcome = await this.post(target, body);
      if (outcome === 'ok') {
        this.opts.metrics?.delivered();
        await this.settled(outboxId);
        return;
      }
      if (outcome === 'refused') break;
    }
    await this.settled(outboxId);
    this.opts.metrics?.failed();
    this.opts.logger?.warn(
      { task_id: target.taskId, config_id: target.configId, url: redact(target.url) },
      'push notification given up',
    );
  }

  private async post(target: WebhookTarget, body: string): Promise<'ok' | 'retry' | 'refused'> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (target.authentication) {
      const { scheme, credentials } = target.authentication;
      headers['authorization'] = credentials !== undefined ? `${scheme} ${credentials}` : scheme;
    }
    if (target.token !== undefined) headers['x-a2a-notification-token'] = target.token;
    try {
      const status = await postWebhook(target.url, headers, body, this.opts.timeoutMs, this.opts.addresses);
      if (status >= 200 && status < 300) return 'ok';
      return retryableStatus(status) ? 'retry' : 'refused';
    } catch (err) {
      if (err instanceof WebhookAddressRefused) {
        // Resolved again on the next attempt: a name may move to an allowed address.
        this.opts.logger?.warn(
          { task_id: target.taskId, config_id: target.configId, url: redact(target.url), reason: err.message },
          'push notification target refused',
        );
      }
      return 'retry'; // connection refused, reset, timeout, refused address
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      t.unref();
      this.timers.add(t);
    });
  }
}

function targetOf(e: PushOutboxEntry): WebhookTarget {
  return {
    taskId: e.taskId,
    configId: e.configId,
    url: e.url,
    ...(e.token !== undefined ? { token: e.token } : {}),
    ...(e.authentication ? { authentication: e.authentication } : {}),
  };
}

/** Logs never carry a webhook's query string or user info (tokens live there too). */
function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}
