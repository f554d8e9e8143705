/**
 * One principal may hold only its share of a session's observer slots
 * (PTYWS_OBSERVERS_PER_PRINCIPAL): before, 32 joins with one observe token took every slot and
 * everyone else's join was refused. Admins are not held to the share (they can end the session
 * anyway); the session-wide cap still applies to everyone.
 */
import { TestContext, errorPayloadOf, is, type TestClient } from '@pty-ws/testkit';

jest.setTimeout(60_000);

/** Sends a join as observer; the answer's error code, or 'assigned'. */
async function observerJoin(c: TestClient): Promise<string> {
  const from = c.mark();
  c.send('pty.join_session', { role: 'observer' });
  const r = await c.waitFor((f) => is.kind('RoleAssigned')(f) || is.error()(f), 5000, from);
  return errorPayloadOf(r)?.code ?? 'assigned';
}

describe('observer slots per principal', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ maxObservers: 6, maxObserversPerPrincipal: 2 });
  });
  afterAll(() => ctx?.dispose());

  it('one observe token gets its share; another token and an admin still join', async () => {
    const sessionId = (await ctx.createSession({ argv: ['/bin/cat'] })).session_id;
    const { token: a } = await ctx.mintToken({ scopes: ['pty:observe'], label: 'share-a' });
    const { token: b } = await ctx.mintToken({ scopes: ['pty:observe'], label: 'share-b' });
    const joins = async (token: string | undefined, n: number) => {
      const codes: string[] = [];
      for (let i = 0; i < n; i++) {
        codes.push(await observerJoin(await ctx.attach(sessionId, token ? { token } : {})));
      }
      return codes;
    };
    expect(await joins(a, 3)).toEqual(['assigned', 'assigned', 'RATE_LIMITED']);
    expect(await joins(b, 1)).toEqual(['assigned']);
    // The admin token is past its share of 2, and the session-wide cap of 6 stops it.
    expect(await joins(undefined, 4)).toEqual(['assigned', 'assigned', 'assigned', 'RATE_LIMITED']);
  });
});
