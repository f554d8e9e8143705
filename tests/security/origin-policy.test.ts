/**
 * Browsers attach ambient credentials by themselves, so the edge checks where a browser request
 * comes from (issue 13: with PTYWS_AUTH=disabled any web page could start a shell and type into
 * it). A request whose `Origin` is neither the same origin (Origin host = Host header) nor listed
 * in PTYWS_ALLOWED_ORIGINS gets 403 on attach upgrades and REST; requests without `Origin`
 * (non-browser clients) are unaffected. REST bodies must be application/json (a cross-site
 * `text/plain` POST needs no CORS preflight). PTYWS_AUTH=disabled starts only on loopback.
 */
import { ConfigError, loadConfig } from '@pty-ws/config';
import { TestContext, http, startTestServer, tryUpgrade } from '@pty-ws/testkit';

jest.setTimeout(60_000);

describe('Origin allowlist with PTYWS_AUTH=disabled', () => {
  let ctx: TestContext;
  let sessionId = '';
  beforeAll(async () => {
    ctx = await TestContext.start({ authEnabled: false, allowedOrigins: ['http://ops.example'] });
    sessionId = (await ctx.createSession({ argv: ['/bin/cat'] })).session_id;
  });
  afterAll(async () => {
    await ctx?.dispose();
  });

  /** The REST host (cluster mode: the first edge; attach URLs alternate between the edges). */
  const hostOf = () => new URL(ctx.server.httpUrl).host;

  it('refuses an attach upgrade from a foreign Origin; same origin, listed origins and no Origin attach', async () => {
    const url = ctx.server.attachUrl(sessionId);
    const evil = await tryUpgrade(url, { headers: { Origin: 'http://evil.example' } });
    expect(evil.status).toBe(403);
    expect(evil.body).toMatch(/Origin/);
    expect((await tryUpgrade(url, { headers: { Origin: `http://${new URL(url).host}` } })).status).toBe(101);
    expect((await tryUpgrade(url, { headers: { Origin: 'http://ops.example' } })).status).toBe(101);
    expect((await tryUpgrade(url, {})).status).toBe(101);
  });

  it('refuses REST calls from a foreign Origin, also on GET', async () => {
    const evil = { Origin: 'http://evil.example' };
    expect((await http(ctx.server, 'POST', '/api/v1/sessions', { json: {}, headers: evil })).status).toBe(403);
    expect((await http(ctx.server, 'GET', '/api/v1/sessions', { headers: evil })).status).toBe(403);
    const same = await http(ctx.server, 'GET', '/api/v1/sessions', { headers: { Origin: `http://${hostOf()}` } });
    expect(same.status).toBe(200);
  });

  it('refuses a REST body that is not application/json with 415 (no CORS preflight for text/plain)', async () => {
    const before = ((await http(ctx.server, 'GET', '/api/v1/sessions')).body as { sessions: unknown[] }).sessions;
    const res = await fetch(`${ctx.server.httpUrl}/api/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Connection: 'close' },
      body: JSON.stringify({ argv: ['/bin/sh', '-c', 'id > /tmp/ptyws-pwned'] }),
    });
    expect(res.status).toBe(415);
    await res.text();
    const after = ((await http(ctx.server, 'GET', '/api/v1/sessions')).body as { sessions: unknown[] }).sessions;
    expect(after).toHaveLength(before.length);
  });
});

describe('PTYWS_AUTH=disabled off loopback', () => {
  it('is a configuration error naming the fix', () => {
    let err: unknown;
    try {
      loadConfig({ PTYWS_AUTH: 'disabled', PTYWS_HOST: '0.0.0.0' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/PTYWS_AUTH=disabled with PTYWS_HOST=0\.0\.0\.0.*loopback/);
    expect(() => loadConfig({ PTYWS_AUTH: 'disabled', PTYWS_HOST: '::1' })).not.toThrow();
  });

  it('a node asked to serve auth-disabled on 0.0.0.0 refuses to start', async () => {
    await expect(startTestServer({ authEnabled: false, host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });
});
