/**
 * DNS rebinding: a page on `http://rebind.evil.example:P` whose name is re-pointed at 127.0.0.1
 * is same-origin with itself, so the Origin check passes, and with PTYWS_AUTH=disabled it needs
 * no credential to start a shell. Only the Host header shows the browser believes it talks to
 * another site: with auth disabled, or PTYWS_ALLOWED_HOSTS set, a Host that is neither an IP
 * literal, `localhost` nor a listed name gets 403 before any route runs, on every surface.
 */
import { TestContext, http, tryUpgrade } from '@pty-ws/testkit';

jest.setTimeout(60_000);

/** The headers a rebound page's requests carry: its own name as Host and Origin. */
function rebound(ctx: TestContext, name = 'rebind.evil.example'): Record<string, string> {
  const port = new URL(ctx.server.httpUrl).port;
  return { Host: `${name}:${port}`, Origin: `http://${name}:${port}` };
}

describe('Host allowlist with PTYWS_AUTH=disabled', () => {
  let ctx: TestContext;
  let sessionId = '';
  beforeAll(async () => {
    ctx = await TestContext.start({ authEnabled: false, allowedHosts: ['pty.internal.example'] });
    sessionId = (await ctx.createSession({ argv: ['/bin/cat'] })).session_id;
  });
  afterAll(() => ctx?.dispose());

  const sessionCount = async () =>
    ((await http(ctx.server, 'GET', '/api/v1/sessions')).body as { sessions: unknown[] }).sessions.length;

  it('refuses REST, attach, A2A, the dashboard and probes for a rebound name', async () => {
    const headers = rebound(ctx);
    const before = await sessionCount();
    const create = await http(ctx.server, 'POST', '/api/v1/sessions', { json: { argv: ['/bin/true'] }, headers });
    expect(create.status).toBe(403);
    expect(create.text).toMatch(/Host/);
    expect(await sessionCount()).toBe(before);
    const attach = ctx.server.attachUrl(sessionId);
    expect((await tryUpgrade(attach, { headers: rebound(ctx) })).status).toBe(403);
    const a2a = `/agents/${ctx.server.instanceId}/a2a/v1/message:send`;
    const message = { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'id' }] } };
    expect((await http(ctx.server, 'POST', a2a, { json: message, headers })).status).toBe(403);
    for (const path of ['/', '/.well-known/agent-card.json', '/healthz', '/api/v1/sessions']) {
      expect({ path, status: (await http(ctx.server, 'GET', path, { headers })).status }).toEqual({
        path,
        status: 403,
      });
    }
  });

  it('serves IP literals, localhost and listed names', async () => {
    const port = new URL(ctx.server.httpUrl).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost.:${port}`, 'pty.internal.example']) {
      const res = await http(ctx.server, 'GET', '/api/v1/sessions', { headers: { Host: host } });
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
    }
    const listed = rebound(ctx, 'pty.internal.example');
    expect((await tryUpgrade(ctx.server.attachUrl(sessionId), { headers: listed })).status).toBe(101);
  });
});

describe('Host allowlist with bearer tokens', () => {
  it('is open by default (ingress names are not known to the edge)', async () => {
    const ctx = await TestContext.start();
    try {
      const res = await http(ctx.server, 'GET', '/api/v1/sessions', { headers: { Host: 'pty.example.com' } });
      expect(res.status).toBe(200);
    } finally {
      await ctx.dispose();
    }
  });

  it('is enforced once PTYWS_ALLOWED_HOSTS names the served hosts', async () => {
    const ctx = await TestContext.start({ allowedHosts: ['pty.example.com'] });
    try {
      const ok = await http(ctx.server, 'GET', '/api/v1/sessions', { headers: { Host: 'pty.example.com' } });
      expect(ok.status).toBe(200);
      const other = await http(ctx.server, 'GET', '/api/v1/sessions', { headers: { Host: 'other.example.com' } });
      expect(other.status).toBe(403);
    } finally {
      await ctx.dispose();
    }
  });
});
