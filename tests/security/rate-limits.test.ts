/**
 * Rate limits (binding §11 "Resource exhaustion"): connection rates per principal and per
 * instance (429 before upgrade), the socket cap (503), and per-connection frame and input-byte
 * budgets (Error RATE_LIMITED, then binding_goodbye rate_limited + 4429 when sustained).
 */
import { CloseCode } from '@pty-ws/protocol';
import {
  TestClient,
  TestContext,
  UpgradeRejected,
  delay,
  errorPayloadOf,
  http,
  is,
  joinSession,
  tryUpgrade,
} from '@pty-ws/testkit';
import { shell } from '../conformance/support';
import { attachUrlOnEdge, rateLimitedTotal } from './support';

interface ErrorBody {
  error: { code: string; message: string; retryable: boolean };
}

function errorBody(text: string): ErrorBody['error'] {
  return (JSON.parse(text) as ErrorBody).error;
}

/** Summed over every edge (cluster mode: the refusal may have happened on either). */
const metric = rateLimitedTotal;

describe('connection rate per principal', () => {
  let ctx: TestContext;
  let sessionId = '';
  beforeAll(async () => {
    ctx = await TestContext.start({ connRatePerPrincipal: 1, connBurstPerPrincipal: 3 });
    sessionId = (await ctx.createSession(shell())).session_id;
    // Minting over REST spends the admin's request bucket, not this bucket of attach upgrades.
    minter = (await ctx.mintToken({ scopes: ['pty:admin'] })).token;
  });
  let minter = '';
  afterAll(() => ctx.dispose());

  it('refuses the upgrade past the burst with HTTP 429 RATE_LIMITED and Retry-After', async () => {
    const minted = await http(ctx.server, 'POST', '/api/v1/tokens', {
      token: minter,
      json: { scopes: ['pty:observe'], label: 'burst' },
    });
    const { token } = minted.body as { token: string };
    const url = ctx.server.attachUrl(sessionId);
    for (let i = 0; i < 3; i++) expect((await tryUpgrade(url, { token })).status).toBe(101);
    const refused = await TestClient.connect(url, { token }).then(
      (c) => {
        c.terminate();
        throw new Error('upgrade was accepted');
      },
      (e: unknown) => e,
    );
    if (!(refused instanceof UpgradeRejected)) throw refused;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const err = errorBody(refused.body);
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/principal/);
    // Another principal is not affected by this one's bucket.
    expect((await tryUpgrade(url, { token: ctx.server.adminToken })).status).toBe(101);
    expect(await metric(ctx, 'connections_principal')).toBeGreaterThanOrEqual(1);
  });

  it('refills: after a second the principal may connect again', async () => {
    const minted = await http(ctx.server, 'POST', '/api/v1/tokens', {
      token: minter,
      json: { scopes: ['pty:observe'], label: 'refill' },
    });
    const { token } = minted.body as { token: string };
    const url = ctx.server.attachUrl(sessionId);
    for (let i = 0; i < 3; i++) await tryUpgrade(url, { token });
    expect((await tryUpgrade(url, { token })).status).toBe(429);
    await delay(1100);
    expect((await tryUpgrade(url, { token })).status).toBe(101);
  });
});

describe('connection rate per instance', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Seven REST calls of the setup (a session, six tokens) take from the instance's bucket too.
    ctx = await TestContext.start({ connRatePerInstance: 1, connBurstPerInstance: 11 });
  });
  afterAll(() => ctx.dispose());

  it('refuses the instance past its burst even for fresh principals', async () => {
    const { session_id } = await ctx.createSession(shell());
    const url = ctx.server.attachUrl(session_id);
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push((await ctx.mintToken({ scopes: ['pty:observe'], label: `p${i}` })).token);
    const statuses: number[] = [];
    for (const token of tokens) statuses.push((await tryUpgrade(url, { token })).status);
    expect(statuses.slice(0, 4)).toEqual([101, 101, 101, 101]);
    expect(statuses.slice(4)).toContain(429);
    expect(await metric(ctx, 'connections_instance')).toBeGreaterThanOrEqual(1);
  });
});

describe('sockets per edge', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ maxSockets: 2 });
  });
  afterAll(() => ctx.dispose());

  it('answers 503 once the edge holds its maximum, and admits again after a close', async () => {
    const { session_id } = await ctx.createSession(shell());
    // The cap is per edge: every connection goes to the same one (cluster mode has two).
    const url = attachUrlOnEdge(ctx, session_id);
    const token = ctx.server.adminToken;
    const a = await TestClient.connect(url, { token });
    const b = await TestClient.connect(url, { token });
    await Promise.all([a.hello(), b.hello()]);
    const refused = await tryUpgrade(url, { token });
    expect(refused.status).toBe(503);
    expect(errorBody(refused.body).code).toBe('RATE_LIMITED');
    a.ws.close(1000);
    await a.closed;
    await delay(100);
    expect((await tryUpgrade(url, { token })).status).toBe(101);
    expect(await metric(ctx, 'sockets')).toBeGreaterThanOrEqual(1);
    b.terminate();
  });
});

describe('per-connection frame and input budgets', () => {
  let ctx: TestContext;
  let sessionId = '';
  beforeAll(async () => {
    ctx = await TestContext.start({ frameRatePerConn: 20, inputBytesPerConn: 1024 });
    sessionId = (await ctx.createSession(shell())).session_id;
  });
  afterAll(() => ctx.dispose());

  it('answers frames over the rate with Error RATE_LIMITED for that frame and keeps the connection', async () => {
    const c = await ctx.attach(sessionId);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(c.send('ping', { client_ts: String(i) }));
    const last = ids[ids.length - 1] as string;
    const r = await c.waitFor(is.reply(last), 3000);
    expect(errorPayloadOf(r)?.code).toBe('RATE_LIMITED');
    const limited = c.frames.filter(is.error('RATE_LIMITED'));
    expect(limited.length).toBeGreaterThanOrEqual(15);
    await delay(1100);
    expect((await c.request('ping', { client_ts: 'after' })).op).toBe('pong');
    expect(c.isOpen).toBe(true);
    expect(await metric(ctx, 'frames')).toBeGreaterThanOrEqual(15);
  });

  it('closes a sustained flood with binding_goodbye rate_limited and 4429', async () => {
    const c = await ctx.attach(sessionId);
    for (let i = 0; i < 400 && c.isOpen; i++) c.send('ping', { client_ts: String(i) });
    const closed = await c.closed;
    expect(closed.code).toBe(CloseCode.RATE_LIMITED);
    const bye = c.frames.find(is.op('binding_goodbye'));
    expect(bye && bye.type === 'json' ? bye.frame.payload?.['reason'] : undefined).toBe('rate_limited');
  });

  it('refuses PTY input beyond the byte rate with Error RATE_LIMITED naming the request', async () => {
    const c = await ctx.attach(sessionId);
    await joinSession(c, { role: 'controller' });
    const id = c.input(Buffer.alloc(2000, 0x20));
    const r = await c.waitFor(is.reply(id), 3000);
    expect(errorPayloadOf(r)?.code).toBe('RATE_LIMITED');
    expect(await metric(ctx, 'input_bytes')).toBeGreaterThanOrEqual(1);
    expect((await c.request('ping', {})).op).toBe('pong');
  });
});
