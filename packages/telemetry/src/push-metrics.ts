import { Counter, type Registry } from 'prom-client';

/** What the A2A webhook deliverer records (structurally `@pty-ws/a2a` PushMetrics). */
export interface PushNotificationMetrics {
  delivered(): void;
  retried(): void;
  failed(): void;
}

const OUTCOMES = ['delivered', 'retried', 'failed'] as const;

/**
 * `ptyws_push_notifications_total{outcome}` on `registry`: notifications the receiver accepted,
 * re-attempts after a failure, and notifications given up on. Registered once per registry.
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
  return {
    delivered: () => counter.inc({ outcome: 'delivered' }),
    retried: () => counter.inc({ outcome: 'retried' }),
    failed: () => counter.inc({ outcome: 'failed' }),
  };
}
