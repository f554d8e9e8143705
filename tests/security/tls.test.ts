/**
 * Transport security (binding §11 "Transport"): PTYWS_TLS_CERT/KEY serve https and wss on the
 * same port; PTYWS_ALLOW_INSECURE=0 refuses plain ws:// unless a trusted proxy saw https.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { SUBPROTOCOL_JSON } from '@pty-ws/protocol';
import { TestContext, http, tryUpgrade } from '@pty-ws/testkit';
import { shell } from '../conformance/support';

function selfSigned(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

function httpsJson(url: string, ca: Buffer, token: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca,
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', connection: 'close' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function firstFrame(url: string, ca: Buffer, token: string): Promise<{ op: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [SUBPROTOCOL_JSON], { ca, headers: { authorization: `Bearer ${token}` } });
    ws.once('message', (data: Buffer) => {
      resolve(JSON.parse(data.toString('utf8')) as { op: string });
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

describe('TLS', () => {
  let dir = '';
  let ca: Buffer;
  let ctx: TestContext;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ptyws-tls-'));
    const { cert, key } = selfSigned(dir);
    ca = readFileSync(cert);
    ctx = await TestContext.start({ tlsCert: cert, tlsKey: key, allowInsecure: false });
  });
  afterAll(async () => {
    await ctx.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves https and wss on one port: create a session, attach, receive binding_hello', async () => {
    expect(ctx.server.httpUrl).toMatch(/^https:\/\//);
    expect(ctx.server.wsUrl).toMatch(/^wss:\/\//);
    const created = await httpsJson(`${ctx.server.httpUrl}/api/v1/sessions`, ca, ctx.server.adminToken, shell());
    expect(created.status).toBe(201);
    const { session_id, attach_url } = created.body as { session_id: string; attach_url: string };
    expect(attach_url).toMatch(/^wss:\/\//);
    const hello = await firstFrame(ctx.server.attachUrl(session_id), ca, ctx.server.adminToken);
    expect(hello.op).toBe('binding_hello');
  });

  it('answers with HSTS and nosniff under TLS', async () => {
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(`${ctx.server.httpUrl}/healthz`, { ca, agent: false }, (res) => {
        res.resume();
        resolve(res.headers);
      });
      req.on('error', reject);
      req.end();
    });
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('does not speak plain ws:// on the TLS port', async () => {
    const plain = ctx.server.attachUrl('x').replace(/^wss:/, 'ws:');
    await expect(tryUpgrade(plain, { token: ctx.server.adminToken, timeoutMs: 2000 })).rejects.toThrow();
  });
});

describe('PTYWS_ALLOW_INSECURE=0 without TLS', () => {
  it('refuses plain upgrades with 403 unless a trusted proxy forwarded https', async () => {
    const ctx = await TestContext.start({ allowInsecure: false, trustedProxies: ['127.0.0.1/32', '::1/128'] });
    try {
      // REST follows the same rule: the test is the trusted proxy here.
      const created = await http(ctx.server, 'POST', '/api/v1/sessions', {
        json: shell(),
        headers: { 'X-Forwarded-Proto': 'https' },
      });
      expect(created.status).toBe(201);
      const { session_id } = created.body as { session_id: string };
      const url = ctx.server.attachUrl(session_id);
      const token = ctx.server.adminToken;
      const refused = await tryUpgrade(url, { token });
      expect(refused.status).toBe(403);
      const err = (JSON.parse(refused.body) as { error: { code: string; message: string } }).error;
      expect(err.code).toBe('PERMISSION_DENIED');
      expect(err.message).toMatch(/wss:\/\//);
      expect((await tryUpgrade(url, { token, headers: { 'X-Forwarded-Proto': 'http' } })).status).toBe(403);
      expect((await tryUpgrade(url, { token, headers: { 'X-Forwarded-Proto': 'https' } })).status).toBe(101);
    } finally {
      await ctx.dispose();
    }
  });

  it('ignores X-Forwarded-Proto from a peer outside PTYWS_TRUSTED_PROXIES', async () => {
    const ctx = await TestContext.start({ allowInsecure: false, trustedProxies: ['10.0.0.0/8'] });
    try {
      // The transport is judged before anything else, so no session is needed (REST is refused too).
      const res = await tryUpgrade(ctx.server.attachUrl('any-session'), {
        token: ctx.server.adminToken,
        headers: { 'X-Forwarded-Proto': 'https' },
      });
      expect(res.status).toBe(403);
    } finally {
      await ctx.dispose();
    }
  });

  it('accepts plain upgrades by default (single-node, no TLS)', async () => {
    const ctx = await TestContext.start();
    try {
      const { session_id } = await ctx.createSession(shell());
      expect((await tryUpgrade(ctx.server.attachUrl(session_id), { token: ctx.server.adminToken })).status).toBe(101);
    } finally {
      await ctx.dispose();
    }
  });
});

describe('plain-http REST when insecure transport is not allowed', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ allowInsecure: false, trustedProxies: ['127.0.0.1/32', '::1/128'] });
  });
  afterAll(() => ctx.dispose());

  it('refuses every /api/v1 call over plain http with 403 and a JSON error saying how to connect', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/sessions'],
      ['POST', '/api/v1/tokens'],
      ['DELETE', '/api/v1/sessions/x'],
      ['GET', '/api/v1/audit'],
    ] as const) {
      const res = await http(ctx.server, method, path, {
        json: method === 'POST' ? { scopes: ['pty:observe'] } : undefined,
      });
      expect(res.status).toBe(403);
      const err = (res.body as { error: { code: string; message: string } }).error;
      expect(err.code).toBe('PERMISSION_DENIED');
      expect(err.message).toMatch(/https:\/\//);
    }
  });

  it('refuses before authenticating: no bearer is needed to learn the rule, none is checked over plain http', async () => {
    const res = await http(ctx.server, 'GET', '/api/v1/sessions', { token: 'ptyws_not_a_real_token_at_all' });
    expect(res.status).toBe(403);
  });

  it('accepts the call from a trusted proxy that saw https', async () => {
    const res = await http(ctx.server, 'GET', '/api/v1/sessions', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(res.status).toBe(200);
  });

  it('keeps health and metrics endpoints reachable for probes', async () => {
    expect((await http(ctx.server, 'GET', '/healthz', { token: null })).status).toBe(200);
    expect((await http(ctx.server, 'GET', '/metrics', { token: null })).status).toBe(200);
  });
});
