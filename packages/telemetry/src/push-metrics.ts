import { Counter, Gauge, type Registry } from 'prom-client';

/** What the A2A webhook deliverer records (structurally `@pty-ws/a2a` PushMetrics). */
export interface PushNotificationMetrics {
  delivered(): void;
  retried(): void;
  failed(): void;
  /** Notifications queued or being attempted changed by `delta`. */
  pending(delta: number): void;
}

const OUTCOMES = ['delivered', 'retried', 'failed'] as const;

/**
 * `ptyws_push_notifications_total{outcome}` on `registry`: notifications the receiver accepted,
 * re-attempts after a failure, and notifications given up on; `ptyws_push_notifications_pending`:
 * those queued or being attempted by this process. Registered once per registry.
 */
export function pushNotificationMetrics(registry: Registry): PushNotificationMetrics {
  const name = 'ptyws_push_notifications_total';
  const counter =
    (registry.getSingleMetric(name) as Counter<'outcome'> | undefined) ??
    new Counter({
      name,
      help: 'A2A push notifications (webhook POSTs) by outcome: delivered, retried (one more attempt), failed (given up).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
  for (const outcome of OUTCOMES) counter.inc({ outcome }, 0);
  const pendingName = 'ptyws_push_notifications_pending';
  const pending =
    (registry.getSingleMetric(pendingName) as Gauge | undefined) ??
    new Gauge({
      name: pendingName,
      help: 'A2A push notifications queued or being attempted by this process (each also waits in the outbox).',
      registers: [registry],
    });
  return {
    pending: (delta) => pending.inc(delta),
    delivered: () => counter.inc({ outcome: 'delivered' }),
    retried: () => counter.inc({ outcome: 'retried' }),
    failed: () => counter.inc({ outcome: 'failed' }),
  };
}
