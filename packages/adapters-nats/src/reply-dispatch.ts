import type { NatsConnection } from '@nats-io/transport-node';

type Dispatch = (err: Error | null, msg: unknown) => void;

/** nats.js 3's reply multiplexer (`nc.protocol.muxSubscriptions`): it routes every request's reply. */
interface MuxInternals {
  dispatcher(): Dispatch;
}

/**
 * Replies are dispatched without capturing stack traces. nats.js settles a request's promise from
 * its reply multiplexer and then cancels the request, which builds a `RequestError("cancelled")`
 * for a promise already resolved: a stack trace captured and thrown away for every JetStream
 * append and every keystroke sent to an agent (6 % of an agent's event loop with 50 sessions
 * typing). Errors made while a reply is routed (that one, and a no-responders error) keep their
 * class and message and lose only their stack, which points into nats.js anyway.
 *
 * Must run before the connection's first request (connectNats does): the multiplexer is made then.
 * A no-op when the client's internals are not the expected ones.
 */
export function stacklessReplyDispatch(nc: NatsConnection): void {
  const mux = (nc as unknown as { protocol?: { muxSubscriptions?: Partial<MuxInternals> } }).protocol?.muxSubscriptions;
  if (!mux || typeof mux.dispatcher !== 'function') return;
  const makeDispatch = mux.dispatcher.bind(mux);
  mux.dispatcher = () => {
    const dispatch = makeDispatch();
    return (err, msg) => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        dispatch(err, msg);
      } finally {
        Error.stackTraceLimit = limit;
      }
    };
  };
}
