import type { ManualClock } from '@pty-ws/testkit';
import type { ConnectionState, PtyClient } from '../src';

/** Resolves once the client is in `state` (at once if it already is): waits on events, not on time. */
export function stateReached(client: PtyClient, state: ConnectionState): Promise<void> {
  if (client.state === state) return Promise.resolve();
  return new Promise((resolve) => {
    const off = client.on('state', (ev) => {
      if (ev.state !== state) return;
      off();
      resolve();
    });
  });
}

/**
 * Walks the clock through every backoff pause the client announces: each `reconnecting` event
 * moves the clock by its delay (after the event's listeners ran). Returns the attempts seen.
 */
export function walkBackoff(client: PtyClient, clock: ManualClock): number[] {
  const attempts: number[] = [];
  client.on('reconnecting', (ev) => {
    attempts.push(ev.attempt);
    queueMicrotask(() => clock.advance(ev.delayMs));
  });
  return attempts;
}
