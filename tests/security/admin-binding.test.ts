/**
 * A `pty:admin` token bound to one session (or one instance) stays inside its binding on every
 * admin API: REST and gRPC AdminService list, show and kill only its own session, list and revoke
 * only that session's tokens, cannot create sessions, and mint nothing broader than itself
 * (scopes, session binding, lifetime). Issue 13, HIGH: the binding used to be ignored.
 */
import { A2aError } from '@pty-ws/a2a';
import { http } from '@pty-ws/testkit';
import type { Principal } from '@pty-ws/edge';
import { instanceOf } from '@pty-ws/edge/internal';
import { call, clients, grpc, meta, statusOf, useGrpcServer, type Clients } from '../grpc/support';

jest.setTimeout(60_000);

describe('session-bound pty:admin tokens', () => {
  const ctx = useGrpcServer();
  let c: Clients;
  let mine: string;
  let other: string;
  let bound: string;

  beforeAll(async () => {
    c = clients(ctx().server.grpcAddresses[0]!);
    mine = (await ctx().createSession({ argv: ['/bin/cat'] })).session_id;
    other = (await ctx().createSession({ argv: ['/bin/cat'] })).session_id;
    bound = (await ctx().mintToken({ scopes: ['pty:admin'], session_id: mine, ttl_seconds: 600 })).token;
  });
  afterAll(() => c?.close());

  const rest = (method: string, path: string, json?: unknown) =>
    http(ctx().server, method, path, { token: bound, ...(json !== undefined ? { json } : {}) });

  it('REST: lists, shows and kills only its own session', async () => {
    const list = await rest('GET', '/api/v1/sessions');
    expect(list.status).toBe(200);
    const ids = (list.body as { sessions: { session_id: string }[] }).sessions.map((s) => s.session_id);
    expect(ids).toEqual([mine]);
    expect((await rest('GET', `/api/v1/sessions/${other}`)).status).toBe(404);
    expect((await rest('DELETE', `/api/v1/sessions/${other}`)).status).toBe(404);
    const stillRunning = await http(ctx().server, 'GET', `/api/v1/sessions/${other}`);
    expect((stillRunning.body as { state: string }).state).not.toBe('closed');
    expect((await rest('GET', `/api/v1/sessions/${mine}`)).status).toBe(200);
    expect((await rest('POST', '/api/v1/sessions', { argv: ['/bin/cat'] })).status).toBe(403);
  });

  it('REST: mints only within its own binding', async () => {
    // No session named: the new token inherits the minter's session and expiry.
    const minted = await rest('POST', '/api/v1/tokens', { scopes: ['pty:observe'] });
    expect(minted.status).toBe(201);
    const t = minted.body as { session_id: string | null; expires_at: string | null };
    expect(t.session_id).toBe(mine);
    expect(t.expires_at).not.toBeNull();
    expect((await rest('POST', '/api/v1/tokens', { scopes: ['pty:admin'], session_id: other })).status).toBe(403);
    // Longer-lived than the minter.
    expect((await rest('POST', '/api/v1/tokens', { scopes: ['pty:observe'], ttl_seconds: 86400 })).status).toBe(403);
    // Only its session's tokens are visible; the unbound admin token is not among them.
    const tokens = (await rest('GET', '/api/v1/tokens')).body as { tokens: { session_id: string | null }[] };
    expect(tokens.tokens.length).toBeGreaterThan(0);
    expect(tokens.tokens.every((x) => x.session_id === mine)).toBe(true);
  });

  it('REST: a minted token never outlives its minter', async () => {
    const shortLived = await ctx().mintToken({ scopes: ['pty:admin'], ttl_seconds: 60 });
    const longer = await http(ctx().server, 'POST', '/api/v1/tokens', {
      token: shortLived.token,
      json: { scopes: ['pty:admin'], ttl_seconds: 3600 },
    });
    expect(longer.status).toBe(403);
    const forever = await http(ctx().server, 'POST', '/api/v1/tokens', {
      token: shortLived.token,
      json: { scopes: ['pty:observe'] },
    });
    expect(forever.status).toBe(201);
    expect((forever.body as { expires_at: string | null }).expires_at).not.toBeNull();
  });

  it('REST: the audit trail of a session-bound admin is its session only', async () => {
    const res = await rest('GET', `/api/v1/audit?session_id=${other}`);
    expect([403, 501]).toContain(res.status);
  });

  it('gRPC: ListSessions, GetSession, KillSession and CreateToken honour the binding', async () => {
    const m = meta(bound);
    const list = await call(c.admin, c.admin.ListSessions, {}, m);
    expect(list.sessions?.map((s) => s.session_id)).toEqual([mine]);
    expect((await statusOf(call(c.admin, c.admin.GetSession, { session_id: other }, m))).code).toBe(
      grpc.status.NOT_FOUND,
    );
    expect((await statusOf(call(c.admin, c.admin.KillSession, { session_id: other }, m))).code).toBe(
      grpc.status.NOT_FOUND,
    );
    const unbound = await statusOf(call(c.admin, c.admin.CreateToken, { scopes: ['pty:admin'], session_id: other }, m));
    expect(unbound.code).toBe(grpc.status.PERMISSION_DENIED);
    const ok = await call(c.admin, c.admin.CreateToken, { scopes: ['pty:observe'] }, m);
    expect(ok.token?.session_id).toBe(mine);
    const tokens = await call(c.admin, c.admin.ListTokens, {}, m);
    expect(tokens.tokens?.every((t) => t.session_id === mine)).toBe(true);
  });
});

describe('instance-bound tokens over gRPC', () => {
  const principal: Principal = { id: 'token:x', scopes: new Set(['pty:admin']), instanceId: 'elsewhere' };
  const deps = { instanceId: 'here', auth: undefined as never };

  it("naming this edge's instance in x-ptyws-instance does not lift another instance's token", () => {
    const m = new grpc.Metadata();
    m.set('x-ptyws-instance', 'here');
    expect(() => instanceOf(deps, principal, m)).toThrow(A2aError);
    expect(() => instanceOf(deps, principal, new grpc.Metadata(), 'here')).toThrow(/belongs to instance/);
  });
});
