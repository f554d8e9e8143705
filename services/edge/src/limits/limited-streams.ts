import { bindOperations, type A2aOperations, type CallContext, type StreamEvent } from '@pty-ws/a2a';
import type { RateLimit } from '@pty-ws/telemetry';
import type { ConnectionAdmission } from './connection-admission';
import type { OpenStreams } from './open-streams';
import { rateLimited } from './request-gate';
import { endedStreamError, type StreamWatch } from './stream-watch';

type Open<P> = (params: P, ctx: CallContext) => AsyncIterable<StreamEvent>;

/**
 * The A2A core with its streams (SendStreamingMessage, SubscribeToTask) under the open-connection
 * caps: a stream is refused with RateLimited when its principal or instance already holds its
 * maximum (attach connections and streams together), and is counted in `streams` until it ends.
 * The check runs when the binding pulls the first event, before any byte of the response.
 * With `watch`, a stream also ends (Unauthenticated) when its token is revoked or expires.
 */
export function limitedStreams(
  ops: A2aOperations,
  admission: Pick<ConnectionAdmission, 'admitStream'>,
  streams: OpenStreams,
  onRateLimited?: (limit: RateLimit) => void,
  watch?: StreamWatch,
): A2aOperations {
  const counted =
    <P>(open: Open<P>): Open<P> =>
    (params, ctx) =>
      (async function* (): AsyncGenerator<StreamEvent> {
        const refused = admission.admitStream(ctx.principal.id, ctx.instanceId);
        if (refused) {
          onRateLimited?.(refused.limit);
          throw rateLimited(refused);
        }
        const release = streams.add(ctx.principal.id, ctx.instanceId);
        const watched = watch?.open(ctx.principal, ctx.signal);
        try {
          // The core's task feed ends when this signal aborts: the caller left, or the token ended.
          yield* open(params, watched ? { ...ctx, signal: watched.signal } : ctx);
          if (watched?.endedBy !== undefined) throw endedStreamError(watched.endedBy);
        } finally {
          watched?.close();
          release();
        }
      })();
  const base = bindOperations(ops);
  return {
    ...base,
    sendStreamingMessage: counted(base.sendStreamingMessage),
    subscribeToTask: counted(base.subscribeToTask),
  };
}
