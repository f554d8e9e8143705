import type { HttpResponse } from '../uws';

/**
 * What the edge needs to know of every uWS response besides what the handler does with it: when
 * it is aborted (uWS keeps one onAborted handler; this lets several parts register one) and when
 * the handler has started answering (a status line, an end, an upgrade or a close).
 */
export interface TrackedResponse {
  /** Whether a request body is still being received (set by readText). */
  bodyPending: boolean;
  /** Another handler for the client going away (uWS itself keeps only the last one registered). */
  onAborted(handler: () => void): void;
}

const tracked = new WeakMap<HttpResponse, TrackedResponse>();

/** The tracking state of a response guardApp saw; undefined for others (tests of bare apps). */
export function trackingOf(res: HttpResponse): TrackedResponse | undefined {
  return tracked.get(res);
}

/**
 * Instruments `res` (call first thing in the handler): several `onAborted` handlers may be
 * registered, `answered` runs once when the response starts or the client goes away, and a
 * response that ends while its request body is still arriving closes the connection (the rest of
 * the body is never read, so the connection cannot carry another request).
 */
export function trackResponse(res: HttpResponse, answered: () => void): TrackedResponse {
  const aborted: Array<() => void> = [];
  const state: TrackedResponse = { bodyPending: false, onAborted: (h) => void aborted.push(h) };
  tracked.set(res, state);
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    answered();
  };
  aborted.push(once);
  res.onAborted(() => {
    for (const h of aborted) h();
  });
  res.onAborted = (handler) => {
    aborted.push(handler);
    return res;
  };
  const wrap = <K extends 'writeStatus' | 'upgrade' | 'close' | 'endWithoutBody'>(name: K) => {
    const original = (res[name] as (...args: unknown[]) => unknown).bind(res);
    (res as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      once();
      return original(...args);
    };
  };
  wrap('writeStatus');
  wrap('upgrade');
  wrap('close');
  wrap('endWithoutBody');
  const end = res.end.bind(res);
  res.end = (body, closeConnection) => {
    once();
    return end(body, closeConnection === true || state.bodyPending);
  };
  return state;
}
