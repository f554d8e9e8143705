/**
 * REST takes from the same request buckets as A2A and gRPC (issue 13: 200 parallel REST calls all
 * passed), and refused credentials are throttled per source address (1000 bad tokens were each a
 * TokenStore lookup, Postgres in cluster mode, with no slowdown); valid tokens never wait on it.
 */
import { ManualClock, TestContext, http } from '@pty-ws/testkit';
import { AUTH_FAILURE_BURST, AUTH_FAILURE_RATE_PER_S, AuthFailureThrottle } from '@pty-ws/edge/internal';

jest.setTimeout(60_000);

describe('REST request rate per principal', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ apiRatePerPrincipal: 1, apiBurstPerPrincipal: 5 });
  });
  afterAll(() => ctx.dispose());

  it('answers 429 RATE_LIMITED with Retry-After past the burst', async () => {
    const { token } = await ctx.mintToken({ scopes: ['pty:admin'], label: 'rest-rate' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => http(ctx.server, 'GET', '/api/v1/sessions', { token })),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(20 - 5 - 1);
    expect(limited[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((limited[0]!.body as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });
});

describe('auth-failure throttle per address', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx.dispose());

  it("past the burst of refused tokens, the address's failures get 429", async () => {
    const statuses = await Promise.all(
      Array.from({ length: AUTH_FAILURE_BURST * 2 }, (_, i) =>
        http(ctx.server, 'GET', '/api/v1/sessions', { token: `ptyws_bad-${i}` }).then((r) => r.status),
      ),
    );
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // The bucket refills at AUTH_FAILURE_RATE_PER_S while the calls run: most of the second half is refused.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(AUTH_FAILURE_BURST / 2);
    // A missing token costs no lookup and is not counted, so no-token probes are told 401.
    expect((await http(ctx.server, 'GET', '/api/v1/sessions', { token: null })).status).toBe(401);
  });

  it('the bucket: a burst of failures, then a steady rate, per address', () => {
    const clock = new ManualClock();
    const throttle = new AuthFailureThrottle(AUTH_FAILURE_RATE_PER_S, AUTH_FAILURE_BURST, clock);
    for (let i = 0; i < AUTH_FAILURE_BURST; i++) throttle.failed('10.0.0.1');
    expect(() => throttle.failed('10.0.0.1')).toThrow(/too many failed/);
    expect(() => throttle.failed('10.0.0.2')).not.toThrow(); // another address is not affected
    clock.advance(1000 / AUTH_FAILURE_RATE_PER_S);
    expect(() => throttle.failed('10.0.0.1')).not.toThrow(); // one more failure fits per refill
    expect(() => throttle.failed('10.0.0.1')).toThrow(/too many failed/);
  });
});
