/**
 * Open-connection caps per principal and per instance (PTYWS_MAX_CONNS_PER_PRINCIPAL,
 * PTYWS_MAX_CONNS_PER_INSTANCE) and connection rates, counted across all edges in cluster mode:
 * the test cluster spreads attaches over two edges, so a limit that was per edge would let twice
 * as many through. Edges share counts within a fraction of a second (SharedLimits); the tests wait
 * that long before expecting the other edge's connections to count.
 */
import { TestContext, delay, tryUpgrade, type TestClient } from '@pty-ws/testkit';
import { shell } from '../conformance/support';
import { rateLimitedTotal } from './support';

/** Longer than SharedLimits' 250 ms report interval. */
const PROPAGATION_MS = 700;

/** Summed over every edge. */
const refusals = rateLimitedTotal;

function errorOf(body: string): { code: string; message: string } {
  return (JSON.parse(body) as { error: { code: string; message: string } }).error;
}

describe('open connections per principal', () => {
  let ctx: TestContext;
  let sessionId = '';
  beforeAll(async () => {
    ctx = await TestContext.start({ maxConnsPerPrincipal: 2 });
    sessionId = (await ctx.createSession(shell())).session_id;
  });
  afterAll(() => ctx.dispose());

  it('refuses a third connection on any edge with 429, and admits again once one closed', async () => {
    const { token } = await ctx.mintToken({ scopes: ['pty:observe'] });
    const url = () => ctx.server.attachUrl(sessionId);
    const held: TestClient[] = [await ctx.attach(sessionId, { token }), await ctx.attach(sessionId, { token })];
    await delay(PROPAGATION_MS);
    // attachUrl alternates edges in cluster mode: both edges must refuse.
    for (let i = 0; i < 2; i++) {
      const refused = await tryUpgrade(url(), { token });
      expect(refused.status).toBe(429);
      expect(errorOf(refused.body)).toMatchObject({ code: 'RATE_LIMITED' });
      expect(errorOf(refused.body).message).toMatch(/PTYWS_MAX_CONNS_PER_PRINCIPAL/);
    }
    // Another principal is not affected.
    expect((await tryUpgrade(url(), { token: ctx.server.adminToken })).status).toBe(101);
    expect(await refusals(ctx, 'open_connections_principal')).toBeGreaterThanOrEqual(1);

    await held[0]!.close();
    await delay(PROPAGATION_MS);
    const again = await ctx.attach(sessionId, { token });
    expect(again.isOpen).toBe(true);
  });
});

describe('open connections per instance', () => {
  it('counts every principal of the instance across edges', async () => {
    const ctx = await TestContext.start({ maxConnsPerInstance: 3 });
    try {
      const { session_id } = await ctx.createSession(shell());
      for (let i = 0; i < 3; i++) {
        const { token } = await ctx.mintToken({ scopes: ['pty:observe'] });
        await ctx.attach(session_id, { token });
      }
      await delay(PROPAGATION_MS);
      const { token } = await ctx.mintToken({ scopes: ['pty:observe'] });
      for (let i = 0; i < 2; i++) {
        const refused = await tryUpgrade(ctx.server.attachUrl(session_id), { token });
        expect(refused.status).toBe(429);
        expect(errorOf(refused.body).message).toMatch(/PTYWS_MAX_CONNS_PER_INSTANCE/);
      }
    } finally {
      await ctx.dispose();
    }
  });
});

describe('connection rate per principal', () => {
  it('is one budget across edges: the burst is spent wherever the connections land', async () => {
    const ctx = await TestContext.start({ connRatePerPrincipal: 1, connBurstPerPrincipal: 2 });
    try {
      const { session_id } = await ctx.createSession(shell());
      const { token } = await ctx.mintToken({ scopes: ['pty:observe'] });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await tryUpgrade(ctx.server.attachUrl(session_id), { token })).status);
        await delay(50); // admissions reach the other edge on the next tick; give NATS a moment
      }
      // Per edge, two edges × burst 2 would have admitted all four.
      expect(statuses.slice(0, 2)).toEqual([101, 101]);
      expect(statuses.slice(2)).toEqual([429, 429]);
    } finally {
      await ctx.dispose();
    }
  });
});
