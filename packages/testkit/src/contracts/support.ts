import { randomUUID } from 'node:crypto';

/**
 * Ids unique across tests and runs: a contract suite may run against a shared, persistent
 * backend (one Postgres database, one NATS account), so no test may see another's data.
 */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/**
 * Waits until `condition` holds. Delivery to subscribers is synchronous in memory but not over
 * a network, so the suites wait for what they expect instead of assuming when it arrives.
 */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets in-flight deliveries land before asserting that something did NOT arrive. */
export function settle(ms = 50): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
