import { bindOperations, type A2aOperations, type CallContext, type StreamEvent } from '@pty-ws/a2a';
import type { RateLimit } from '@pty-ws/telemetry';
import type { ConnectionAdmission } from './connection-admission';
import type { OpenStreams } from './open-streams';
import { rateLimited } from './request-gate';

type Open<P> = (params: P, ctx: CallContext) => AsyncIterable<StreamEvent>;

/**
 * The A2A core with its streams (SendStreamingMessage, SubscribeToTask) under the open-connection
 * caps: a stream is refused with RateLimited when its principal or instance already holds its
 * maximum (attach connections and streams together), and is counted in `streams` until it ends.
 * The check runs when the binding pulls the first event, before any byte of the response.
 */
export function limitedStreams(
  ops: A2aOperations,
  admission: Pick<ConnectionAdmission, 'admitStream'>,
  streams: OpenStreams,
  onRateLimited?: (limit: RateLimit) => void,
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
        try {
          yield* open(params, ctx);
        } finally {
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
