import { isNatsOutage, type JetStreamFrameLog } from '@pty-ws/adapters-nats';
import type { PostgresAdapters } from '@pty-ws/adapters-postgres';
import { errorSummary, type DependencyHealth } from './dependency-health';

const PROBE_INTERVAL_MS = 2000;
/** A session id no session has: its bounds make the stream's leader answer without touching a session. */
const PROBE_SESSION = 'readiness-probe';

/** Appends that fail for want of NATS (not a sequence conflict) mark `health` down until one succeeds. */
export function observeAppends(log: JetStreamFrameLog, health: DependencyHealth): void {
  const append = log.append.bind(log);
  log.append = (sessionId, entry) => {
    const stored = append(sessionId, entry);
    stored.then(
      () => health.ok(),
      (err: unknown) => {
        if (isNatsOutage(err)) health.outage(errorSummary(err));
      },
    );
    return stored;
  };
}

const LATE = Symbol('late');

function probe(health: DependencyHealth, timeoutMs: number, call: () => Promise<unknown>): void {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), timeoutMs);
  });
  Promise.race([call(), late])
    .then(
      (answer) => (answer === LATE ? health.outage(`no answer within ${timeoutMs} ms`) : health.ok()),
      (err: unknown) => health.outage(errorSummary(err)),
    )
    .finally(() => clearTimeout(timer));
}

/**
 * Asks Postgres and the log's stream every 2 s whether they answer, so /readyz turns 503 without a
 * request failing first and back to 200 once they answer again. A probe still unanswered when the
 * next is due is an outage; a merely slow one (a busy server) is not.
 */
export function startProbes(
  pool: PostgresAdapters['pool'],
  log: JetStreamFrameLog,
  health: { postgres: DependencyHealth; nats: DependencyHealth },
): { stop(): void } {
  const interval = setInterval(() => {
    probe(health.postgres, PROBE_INTERVAL_MS, () => pool.query('select 1'));
    probe(health.nats, PROBE_INTERVAL_MS, () => log.bounds(PROBE_SESSION));
  }, PROBE_INTERVAL_MS);
  interval.unref();
  return { stop: () => clearInterval(interval) };
}
