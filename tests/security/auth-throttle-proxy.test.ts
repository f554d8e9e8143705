/**
 * The refused-token throttle charges failures to the client's address, never a valid token: a
 * flood of bogus tokens from one address (a NAT, a proxy) must not lock out the valid tokens sent
 * from it. Behind a trusted proxy (PTYWS_TRUSTED_PROXIES) the client is the rightmost
 * `X-Forwarded-For` hop the proxies did not write themselves, so two clients behind one proxy
 * have two buckets; from an untrusted peer the header is ignored.
 */
import { TestContext, http, tryUpgrade } from '@pty-ws/testkit';
import { attachUrlOnEdge } from './support';

jest.setTimeout(60_000);

/** Small buckets keep the floods short: a burst of 5 refused tokens, then one per second. */
const SLOW_REFILL = { authFailureBurst: 5, authFailureRatePerS: 1 } as const;

/**
 * How many bogus tokens `attempt` gets refused with 401 before the first 429. A fresh bucket
 * allows the whole burst; one that is already empty refills one per second, so fewer.
 */
async function refusalsBeforeThrottled(attempt: (i: number) => Promise<number>): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const status = await attempt(i);
    if (status === 429) return i;
    expect(status).toBe(401);
  }
  throw new Error('the address was never throttled');
}

const restWithBogusToken =
  (ctx: TestContext, headers: Record<string, string> = {}) =>
  (i: number) =>
    http(ctx.server, 'GET', '/api/v1/sessions', { token: `ptyws_bogus-${i}`, headers }).then((r) => r.status);

describe('auth-failure throttle and valid tokens', () => {
  let ctx: TestContext;
  let sessionId = '';
  beforeAll(async () => {
    ctx = await TestContext.start(SLOW_REFILL);
    sessionId = (await ctx.createSession({ argv: ['/bin/cat'] })).session_id;
  });
  afterAll(() => ctx?.dispose());

  it('a throttled address still gets through with valid tokens (REST and attach)', async () => {
    const { token: observe } = await ctx.mintToken({ scopes: ['pty:observe'], label: 'throttle-observer' });
    expect(await refusalsBeforeThrottled(restWithBogusToken(ctx))).toBeGreaterThanOrEqual(SLOW_REFILL.authFailureBurst);
    expect((await http(ctx.server, 'GET', '/api/v1/sessions')).status).toBe(200);
    expect((await tryUpgrade(attachUrlOnEdge(ctx, sessionId), { token: ctx.server.adminToken })).status).toBe(101);
    expect((await tryUpgrade(attachUrlOnEdge(ctx, sessionId), { token: observe })).status).toBe(101);
    // Every kind of refusal looks the same from a throttled address (no oracle on revoked/expired).
    const bogusAttach = (i: number) =>
      tryUpgrade(attachUrlOnEdge(ctx, sessionId), { token: `ptyws_bogus-ws-${i}` }).then((r) => r.status);
    expect(await refusalsBeforeThrottled(bogusAttach)).toBeLessThan(SLOW_REFILL.authFailureBurst);
  });
});

describe('client address behind a trusted proxy', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ ...SLOW_REFILL, trustedProxies: ['127.0.0.0/8', '::1/128'] });
  });
  afterAll(() => ctx?.dispose());

  it('two clients behind one proxy address have their own buckets', async () => {
    const burst = SLOW_REFILL.authFailureBurst;
    const clientA = { 'X-Forwarded-For': '203.0.113.5' };
    expect(await refusalsBeforeThrottled(restWithBogusToken(ctx, clientA))).toBeGreaterThanOrEqual(burst);
    // Client B behind the same proxy address has a full bucket of its own.
    expect(
      await refusalsBeforeThrottled(restWithBogusToken(ctx, { 'X-Forwarded-For': '203.0.113.6' })),
    ).toBeGreaterThanOrEqual(burst);
    // Hops left of the rightmost untrusted one are the client's own words: a spoofed prefix is A.
    const spoofed = { 'X-Forwarded-For': '198.51.100.7, 203.0.113.5' };
    expect(await refusalsBeforeThrottled(restWithBogusToken(ctx, spoofed))).toBeLessThan(burst);
    // A chain of trusted proxies is skipped: the client is the hop before them (A again).
    const chained = { 'X-Forwarded-For': '203.0.113.5, 127.0.0.9' };
    expect(await refusalsBeforeThrottled(restWithBogusToken(ctx, chained))).toBeLessThan(burst);
  });
});

describe('X-Forwarded-For from an untrusted peer', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start(SLOW_REFILL);
  });
  afterAll(() => ctx?.dispose());

  it('is ignored: the peer cannot pick a fresh bucket per request', async () => {
    const burst = SLOW_REFILL.authFailureBurst;
    expect(
      await refusalsBeforeThrottled(restWithBogusToken(ctx, { 'X-Forwarded-For': '203.0.113.5' })),
    ).toBeGreaterThanOrEqual(burst);
    const fresh = { 'X-Forwarded-For': '203.0.113.77' };
    expect(await refusalsBeforeThrottled(restWithBogusToken(ctx, fresh))).toBeLessThan(burst);
  });
});
