/**
 * Session caps (issue "Abuse and resource limits"): PTYWS_MAX_SESSIONS_PER_AGENT and
 * PTYWS_MAX_SESSIONS_PER_INSTANCE refuse further creations with 429 RATE_LIMITED naming the cap,
 * count them in ptyws_rate_limited_total{limit}, and free a slot when a session closes.
 */
import { TestContext, delay, http, type HttpResponse } from '@pty-ws/testkit';
import { shell } from '../conformance/support';
import { rateLimitedTotal } from './support';

/** Summed over every edge. */
const rateLimited = rateLimitedTotal;

const create = (ctx: TestContext): Promise<HttpResponse> =>
  http(ctx.server, 'POST', '/api/v1/sessions', { json: shell() });

async function createdAfterClose(ctx: TestContext): Promise<HttpResponse> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await create(ctx);
    if (res.status !== 429 || Date.now() > deadline) return res;
    await delay(100);
  }
}

describe.each([
  ['agent', { maxSessionsPerAgent: 2, maxSessionsPerInstance: 100 }, 'sessions_agent', /PTYWS_MAX_SESSIONS_PER_AGENT/],
  [
    'instance',
    { maxSessionsPerAgent: 100, maxSessionsPerInstance: 2 },
    'sessions_instance',
    /PTYWS_MAX_SESSIONS_PER_INSTANCE/,
  ],
] as const)('running sessions per %s', (_what, caps, limit, variable) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ ...caps });
  });
  afterAll(() => ctx.dispose());

  it('refuses the creation past the cap with 429 RATE_LIMITED, counts it, and frees the slot on close', async () => {
    const first = await create(ctx);
    const second = await create(ctx);
    expect([first.status, second.status]).toEqual([201, 201]);
    const refused = await create(ctx);
    expect(refused.status).toBe(429);
    const err = (refused.body as { error: { code: string; message: string; retryable: boolean } }).error;
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.message).toMatch(variable);
    expect(err.retryable).toBe(true);
    expect(await rateLimited(ctx, limit)).toBeGreaterThanOrEqual(1);

    const { session_id } = first.body as { session_id: string };
    expect((await http(ctx.server, 'DELETE', `/api/v1/sessions/${session_id}`)).status).toBe(200);
    expect((await createdAfterClose(ctx)).status).toBe(201);
    expect((await create(ctx)).status).toBe(429);
  });
});
