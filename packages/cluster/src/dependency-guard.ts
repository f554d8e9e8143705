import { DependencyUnavailable, isDependencyUnavailable } from '@pty-ws/ports';
import { errorSummary, type DependencyHealth } from './dependency-health';

export interface DependencyGuardOptions {
  health: DependencyHealth;
  /** Deadline of each call; past it the caller gets DependencyUnavailable (the call itself goes on). */
  timeoutMs: number;
  /** Failures that mean "the server cannot serve now" rather than "the call was refused". */
  isOutage: (err: unknown) => boolean;
  /** Only these methods get the deadline (default: every method); outage errors are translated for all. */
  deadlineFor?: ReadonlySet<string>;
}

type AnyFunction = (...args: unknown[]) => unknown;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * `target` seen through a deadline: every method that returns a promise settles within
 * `timeoutMs` (for the methods in `deadlineFor`); past it, or failing with an error `isOutage`
 * recognises, it rejects with DependencyUnavailable. Only the error marks `health` down: one slow
 * answer on a busy server is no outage (the probes judge a server that stopped answering), and any
 * answer, even a refusal, marks it up. Synchronous methods and properties pass through.
 * For the request path (REST, upgrades, A2A), where waiting longer than a client would helps
 * nobody; the call is not cancelled, so a write may still land after its caller was told 503.
 */
export function guardDependency<T extends object>(target: T, options: DependencyGuardOptions): T {
  const { health, timeoutMs, isOutage, deadlineFor } = options;
  const wrapped = new Map<PropertyKey, AnyFunction>();

  const settle = (pending: PromiseLike<unknown>, deadline: boolean): Promise<unknown> =>
    new Promise((resolve, reject) => {
      let done = false;
      const timer = deadline
        ? setTimeout(() => {
            done = true;
            reject(new DependencyUnavailable(health.dependency, `no answer within ${timeoutMs} ms`));
          }, timeoutMs)
        : undefined;
      pending.then(
        (value) => {
          clearTimeout(timer);
          health.ok();
          if (!done) resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (isDependencyUnavailable(err)) {
            // Translated below already (a guarded store guarded again).
            health.outage(err.reason);
            if (!done) reject(err);
            return;
          }
          if (!isOutage(err)) {
            health.ok();
            if (!done) reject(err);
            return;
          }
          health.outage(errorSummary(err));
          if (!done) reject(new DependencyUnavailable(health.dependency, 'unreachable', 1, { cause: err }));
        },
      );
    });

  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop, obj);
      if (typeof value !== 'function') return value;
      let fn = wrapped.get(prop);
      if (!fn) {
        const deadline = deadlineFor === undefined || (typeof prop === 'string' && deadlineFor.has(prop));
        fn = (...args: unknown[]) => {
          const out = (value as AnyFunction).apply(obj, args);
          return isThenable(out) ? settle(out, deadline) : out;
        };
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
}

/**
 * `target` whose `methods` first wait for `available()`, which rejects (DependencyUnavailable)
 * while a dependency they need is down: at once when it is known down, within the deadline when it
 * stopped answering. The call is then never made, rather than queued until the client reconnects
 * (nats.js holds requests until their own, longer timeout) or left hanging inside the owner. Other
 * methods — a connection's keystrokes, which retry across a reconnect — pass.
 */
export function failFastWhileDown<T extends object>(
  target: T,
  available: () => Promise<void>,
  methods: ReadonlySet<string>,
): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop, obj);
      if (typeof value !== 'function') return value;
      const fn = value as AnyFunction;
      if (typeof prop !== 'string' || !methods.has(prop)) return fn.bind(obj);
      return (...args: unknown[]) => available().then(() => fn.apply(obj, args));
    },
  });
}
