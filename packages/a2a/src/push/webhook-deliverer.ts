import type { PushAuthentication } from '@pty-ws/ports';

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
 */
export class WebhookDeliverer {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly opts: WebhookDelivererOptions) {}

  /** Queues `body` for `target`; never throws (failures are logged and counted). */
  enqueue(target: WebhookTarget, body: unknown): void {
    if (this.stopped) return;
    const key = `${target.taskId}\u0000${target.configId}`;
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.deliver(target, JSON.stringify(body)));
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
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
    this.stop();
  }

  /** Drops what is queued and cancels pending retries (shutdown). */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async deliver(target: WebhookTarget, body: string): Promise<void> {
    const { attempts, initialBackoffMs, maxBackoffMs } = this.opts;
    for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
      if (attempt > 1) {
        this.opts.metrics?.retried();
        await this.sleep(Math.min(maxBackoffMs, initialBackoffMs * 2 ** (attempt - 2)));
        if (this.stopped) return;
      }
      const outcome = await this.post(target, body);
      if (outcome === 'ok') {
        this.opts.metrics?.delivered();
        return;
      }
      if (outcome === 'refused') break;
    }
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
      const res = await fetch(target.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined); // release the connection
      if (res.status >= 200 && res.status < 300) return 'ok';
      return retryableStatus(res.status) ? 'retry' : 'refused';
    } catch {
      return 'retry'; // connection refused, reset, timeout
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

/** Logs never carry a webhook's query string or user info (tokens live there too). */
function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}
