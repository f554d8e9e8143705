import { DependencyUnavailable, isDependencyUnavailable } from '@pty-ws/ports';
import { BindingError } from '@pty-ws/protocol';
import { decodeJson, encodeJson, errorReply, rethrow, type RpcReply } from '../src/rpc';

/** What the edge throws for what the owner threw, after the reply crossed NATS as JSON. */
function acrossTheWire(err: unknown): unknown {
  const reply = decodeJson<RpcReply>(encodeJson(errorReply(err)));
  if (reply.ok) throw new Error('an error reply came back ok');
  try {
    rethrow(reply.error);
  } catch (thrown) {
    return thrown;
  }
  throw new Error('rethrow returned');
}

describe('owner errors across NATS', () => {
  it("an owner's unreachable store reaches the edge as DependencyUnavailable (503, Retry-After), not as an internal error", () => {
    const got = acrossTheWire(new DependencyUnavailable('PostgreSQL', 'unreachable', 2));
    expect(isDependencyUnavailable(got)).toBe(true);
    expect(got).toMatchObject({ dependency: 'PostgreSQL', reason: 'unreachable', retryAfterS: 2, httpStatus: 503 });
  });

  it('binding errors keep their code', () => {
    const got = acrossTheWire(new BindingError('RATE_LIMITED', 'too many sessions'));
    expect(got).toBeInstanceOf(BindingError);
    expect(isDependencyUnavailable(got)).toBe(false);
    expect(got).toMatchObject({ code: 'RATE_LIMITED', message: 'too many sessions' });
  });
});
