/**
 * Optional mTLS (binding §7.1.2): with PTYWS_TLS_CA every client must present a certificate the CA
 * signed; without a bearer token the certificate's identity (subject CN, else SAN) is the principal,
 * with the scopes of PTYWS_MTLS_SCOPES. Certificates are made at test time with the openssl CLI.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { SUBPROTOCOL_JSON, newId } from '@pty-ws/protocol';
import { DroppedBeforeHello, retryDroppedAttach, TestContext } from '@pty-ws/testkit';
import { shell } from '../conformance/support';
import { makeCa, makeLeaf } from './certs';

interface Tls {
  ca: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

function httpsJson(
  url: string,
  tls: Tls,
  method: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'close', 'content-type': 'application/json' };
    if (token) headers['authorization'] = `Bearer ${token}`;
    const req = request(url, { method, agent: false, headers, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * Opens a wss connection and collects frames until `frames` says done; rejects on a failed
 * handshake, an Error frame, or a close before that. A socket uWS dropped right after the upgrade
 * (1006 before any frame: ARCHITECTURE.md, "Known defect: dropped attaches") is opened again, as
 * the suite's other clients do; that drop had left this helper waiting out the test's timeout.
 */
function attach(
  url: string,
  tls: Tls,
  frames: (ws: WebSocket, f: { op: string; payload: Record<string, unknown> }) => boolean,
  origin?: string,
): Promise<void> {
  return retryDroppedAttach('mtls attach', () => attachOnce(url, tls, frames, origin));
}

function attachOnce(
  url: string,
  tls: Tls,
  frames: (ws: WebSocket, f: { op: string; payload: Record<string, unknown> }) => boolean,
  origin?: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [SUBPROTOCOL_JSON], { ...tls, ...(origin !== undefined ? { origin } : {}) });
    let heard = false;
    ws.on('message', (data: Buffer) => {
      heard = true;
      const f = JSON.parse(data.toString('utf8')) as { op: string; payload: Record<string, unknown> };
      if (f.op === 'Error') {
        ws.terminate();
        reject(new Error(`Error frame: ${JSON.stringify(f.payload)}`));
      } else if (frames(ws, f)) {
        ws.terminate();
        resolve();
      }
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    // After resolve or reject above this changes nothing (a promise settles once).
    ws.once('close', (code: number) =>
      reject(
        !heard && code === 1006
          ? new DroppedBeforeHello(`attach closed ${code} before binding_hello`)
          : new Error(`socket closed (${code}) before the awaited frame`),
      ),
    );
  });
}

describe('mTLS (PTYWS_TLS_CA)', () => {
  let dir = '';
  let ctx: TestContext;
  let trusted: Tls;
  let client: Tls;
  let sessionId = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ptyws-mtls-'));
    const ca = makeCa(dir, 'clients-ca');
    const serverCa = makeCa(dir, 'server-ca');
    const rogueCa = makeCa(dir, 'rogue-ca');
    const server = makeLeaf(dir, 'server', serverCa, '/CN=localhost', 'IP:127.0.0.1,DNS:localhost', false);
    const alice = makeLeaf(dir, 'alice', ca, '/CN=alice-bot/O=ops', 'DNS:alice.example', true);
    const mallory = makeLeaf(dir, 'mallory', rogueCa, '/CN=alice-bot', 'DNS:alice.example', true);
    trusted = { ca: readFileSync(serverCa.cert) };
    client = { ...trusted, cert: readFileSync(alice.cert), key: readFileSync(alice.key) };
    rogue = { ...trusted, cert: readFileSync(mallory.cert), key: readFileSync(mallory.key) };
    ctx = await TestContext.start({
      tlsCert: server.cert,
      tlsKey: server.key,
      tlsCa: ca.cert,
      mtlsScopes: ['pty:observe', 'pty:control'],
      allowInsecure: false,
      auditLog: join(dir, 'audit.jsonl'),
    });
    const created = await httpsJson(
      `${ctx.server.httpUrl}/api/v1/sessions`,
      client,
      'POST',
      ctx.server.adminToken,
      shell(),
    );
    expect(created.status).toBe(201);
    sessionId = (created.body as { session_id: string }).session_id;
  });
  let rogue: Tls;
  afterAll(async () => {
    await ctx?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a client certificate signed by the CA attaches without a token; its CN is the principal', async () => {
    let role = '';
    await attach(ctx.server.attachUrl(sessionId), client, (ws, f) => {
      if (f.op === 'binding_hello')
        ws.send(JSON.stringify({ op: 'pty.join_session', id: newId(), ts: new Date().toISOString(), payload: {} }));
      if (f.op === 'pty.session_frame' && f.payload['kind'] === 'RoleAssigned') role = String(f.payload['role']);
      return role !== '';
    });
    // PTYWS_MTLS_SCOPES grants pty:control, so the join defaults to controller.
    expect(role).toBe('controller');
    const deadline = Date.now() + 5000;
    let attachEvent: Record<string, unknown> | undefined;
    while (!attachEvent && Date.now() < deadline) {
      const res = await httpsJson(
        `${ctx.server.httpUrl}/api/v1/audit?session_id=${sessionId}`,
        client,
        'GET',
        ctx.server.adminToken,
      );
      attachEvent = (res.body as { events: Array<Record<string, unknown>> }).events.find((e) => e['type'] === 'attach');
      if (!attachEvent) await new Promise((r) => setTimeout(r, 100));
    }
    expect(attachEvent).toMatchObject({
      principal: 'cert:alice-bot',
      detail: { principal_kind: 'certificate', scopes: ['pty:control', 'pty:observe'] },
    });
    // The TLS client's own address, not the loopback address the relay used.
    expect((attachEvent?.['detail'] as Record<string, unknown>)['source_address']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it('a certificate alone does not let a foreign web page attach (cross-site WebSocket hijacking)', async () => {
    // The browser presents the client certificate by itself; the page's Origin gives it away.
    await expect(attach(ctx.server.attachUrl(sessionId), client, () => true, 'https://evil.example')).rejects.toThrow(
      'HTTP 403',
    );
    // The same origin attaches (cluster mode: attach URLs alternate between edges, so one URL).
    const url = ctx.server.attachUrl(sessionId);
    await attach(url, client, (_ws, f) => f.op === 'binding_hello', `https://${new URL(url).host}`);
  });

  it('the AgentCard publishes the mutualTLS scheme it enforces (binding §7.1.2)', async () => {
    const card = await httpsJson(
      `${ctx.server.httpUrl}/agents/${ctx.server.instanceId}/.well-known/agent-card.json`,
      client,
      'GET',
    );
    expect(card.status).toBe(200);
    // A2A v1.0 ProtoJSON: the SecurityScheme oneof member, and a requirement naming the scheme.
    const body = card.body as { securitySchemes: Record<string, object>; securityRequirements: unknown[] };
    expect(body.securitySchemes['mtls']).toHaveProperty('mtlsSecurityScheme');
    expect(body.securityRequirements).toContainEqual({ schemes: { mtls: {} } });
  });

  it('REST with the certificate alone has its scopes: no pty:admin, so 403', async () => {
    const res = await httpsJson(`${ctx.server.httpUrl}/api/v1/sessions`, client, 'GET');
    expect(res.status).toBe(403);
    expect((res.body as { error: { code: string } }).error.code).toBe('PERMISSION_DENIED');
  });

  it('refuses a client without a certificate at the TLS handshake, even with a valid bearer token', async () => {
    await expect(
      httpsJson(`${ctx.server.httpUrl}/api/v1/sessions`, trusted, 'GET', ctx.server.adminToken),
    ).rejects.toThrow();
    await expect(attach(ctx.server.attachUrl(sessionId), trusted, () => true)).rejects.toThrow();
  });

  it('refuses a certificate from an unknown CA, even with the same subject', async () => {
    await expect(
      httpsJson(`${ctx.server.httpUrl}/api/v1/sessions`, rogue, 'GET', ctx.server.adminToken),
    ).rejects.toThrow();
    await expect(attach(ctx.server.attachUrl(sessionId), rogue, () => true)).rejects.toThrow();
  });
});
