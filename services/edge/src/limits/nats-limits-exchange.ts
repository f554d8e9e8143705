import type { LimitsExchange, LimitsReport } from './shared-limits';

/** The part of a NATS connection the exchange uses (structural: the edge has no NATS dependency of its own). */
export interface NatsLike {
  publish(subject: string, payload: string): void;
  subscribe(
    subject: string,
    opts: { callback: (err: Error | null, msg: { string(): string }) => void },
  ): { unsubscribe(): void };
}

/** Limits reports on `<prefix>.edges.limits`: plain publish/subscribe, no JetStream, no replies. */
export function natsLimitsExchange(nc: NatsLike, prefix: string): LimitsExchange {
  const subject = `${prefix}.edges.limits`;
  return {
    publish: (report) => nc.publish(subject, JSON.stringify(report)),
    subscribe(onReport) {
      const sub = nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return;
          try {
            onReport(JSON.parse(msg.string()) as LimitsReport);
          } catch {
            // A malformed report is ignored; the next full report restores that edge's counts.
          }
        },
      });
      return () => sub.unsubscribe();
    },
  };
}
