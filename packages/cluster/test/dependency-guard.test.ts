import { DependencyUnavailable, isDependencyUnavailable } from '@pty-ws/ports';
import { failFastWhileDown, guardDependency } from '../src/dependency-guard';
import { DependencyHealth } from '../src/dependency-health';

class Outage extends Error {}

/** A store whose calls answer as the test says: never, now, or with an outage or a refusal. */
class FakeStore {
  hang(): Promise<string> {
    return new Promise(() => undefined);
  }
  answer(value: string): Promise<string> {
    return Promise.resolve(value);
  }
  fail(err: Error): Promise<string> {
    return Promise.reject(err);
  }
  later(value: string, ms: number): Promise<string> {
    return new Promise((resolve) => setTimeout(() => resolve(value), ms));
  }
  name(): string {
    return 'fake';
  }
}

function guarded(deadlineFor?: ReadonlySet<string>): { store: FakeStore; health: DependencyHealth } {
  const health = new DependencyHealth('PostgreSQL');
  const store = guardDependency(new FakeStore(), {
    health,
    timeoutMs: 30,
    isOutage: (err) => err instanceof Outage,
    ...(deadlineFor ? { deadlineFor } : {}),
  });
  return { store, health };
}

describe('guardDependency', () => {
  it('answers a call the server never answers with DependencyUnavailable at the deadline (one slow call is no outage)', async () => {
    const { store, health } = guarded();
    const err: unknown = await store.hang().catch((e: unknown) => e);
    expect(isDependencyUnavailable(err)).toBe(true);
    expect(err).toMatchObject({ dependency: 'PostgreSQL', reason: 'no answer within 30 ms', httpStatus: 503 });
    expect(health.up).toBe(true);
  });

  it('turns outage errors into DependencyUnavailable (the original as cause) and passes refusals through', async () => {
    const { store, health } = guarded();
    const outage = new Outage('connect ECONNREFUSED 127.0.0.1:5432');
    const err: unknown = await store.fail(outage).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyUnavailable);
    expect((err as DependencyUnavailable).cause).toBe(outage);
    // The address stays in the operator's log: the client's message names the dependency only.
    expect((err as Error).message).not.toContain('127.0.0.1');
    expect(health.up).toBe(false);
    await expect(store.answer('row')).resolves.toBe('row');
    expect(health.up).toBe(true);

    const refusal = new Error('duplicate key value violates unique constraint');
    await expect(store.fail(refusal)).rejects.toBe(refusal);
    expect(health.up).toBe(true);
  });

  it('holds only the methods in deadlineFor to the deadline, and leaves synchronous methods alone', async () => {
    const { store } = guarded(new Set(['hang']));
    await expect(store.later('slow but fine', 120)).resolves.toBe('slow but fine');
    await expect(store.hang()).rejects.toBeInstanceOf(DependencyUnavailable);
    expect(store.name()).toBe('fake');
  });
});

describe('failFastWhileDown', () => {
  it('refuses the listed methods without calling them while a dependency is down, and calls them again once it is back', async () => {
    let down: string | undefined = 'NATS';
    const available = () =>
      down ? Promise.reject(new DependencyUnavailable(down, 'not answering')) : Promise.resolve();
    const store = failFastWhileDown(new FakeStore(), available, new Set(['answer']));
    await expect(store.answer('x')).rejects.toMatchObject({ dependency: 'NATS', retryAfterS: 1 });
    await expect(store.later('other methods pass', 1)).resolves.toBe('other methods pass');
    down = undefined;
    await expect(store.answer('x')).resolves.toBe('x');
  });
});
