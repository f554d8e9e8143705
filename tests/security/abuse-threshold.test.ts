/**
 * The abuse threshold is configuration, not a constant: PTYWS_ABUSE_REFUSALS refusals in a row
 * (or more than PTYWS_ABUSE_REFUSALS_PER_S sustained) end a connection with binding_goodbye
 * rate_limited and close 4429.
 */
import { CloseCode } from '@pty-ws/protocol';
import { TestContext, delay, is } from '@pty-ws/testkit';
import { shell } from '../conformance/support';

async function flood(ctx: TestContext, sessionId: string, frames: number) {
  const c = await ctx.attach(sessionId);
  for (let i = 0; i < frames && c.isOpen; i++) c.send('ping', { client_ts: String(i) });
  const closed = await Promise.race([c.closed, delay(1500).then(() => undefined)]);
  return { closed, refusals: c.frames.filter(is.error('RATE_LIMITED')).length, client: c };
}

describe('abuse threshold', () => {
  it('a low PTYWS_ABUSE_REFUSALS closes a connection after that many refusals', async () => {
    const ctx = await TestContext.start({ frameRatePerConn: 5, abuseRefusals: 3, abuseRefusalsPerS: 1 });
    try {
      const { session_id } = await ctx.createSession(shell());
      const { closed, refusals, client } = await flood(ctx, session_id, 30);
      expect(closed?.code).toBe(CloseCode.RATE_LIMITED);
      // 3 strikes tolerated, the 4th refusal ends it (the Error precedes the goodbye).
      expect(refusals).toBe(4);
      const bye = client.frames.find(is.op('binding_goodbye'));
      expect(bye && bye.type === 'json' ? bye.frame.payload?.['reason'] : undefined).toBe('rate_limited');
    } finally {
      await ctx.dispose();
    }
  });

  it('the same flood under the default threshold (100) gets refusals but stays open', async () => {
    const ctx = await TestContext.start({ frameRatePerConn: 5 });
    try {
      const { session_id } = await ctx.createSession(shell());
      const { closed, refusals, client } = await flood(ctx, session_id, 30);
      expect(closed).toBeUndefined();
      expect(client.isOpen).toBe(true);
      expect(refusals).toBeGreaterThanOrEqual(20);
    } finally {
      await ctx.dispose();
    }
  });
});
