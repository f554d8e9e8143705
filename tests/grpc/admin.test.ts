/**
 * ptyws.admin.v1.AdminService: the REST admin API over gRPC, on the same stores — a session made
 * here is attachable over WebSocket, tokens minted here authenticate everywhere, and the checks
 * (pty:admin, bearer metadata, field limits, unknown ids) answer with gRPC status codes.
 */
import type { admin } from '@pty-ws/a2a-proto';
import { http, joinSession, type TestClient } from '@pty-ws/testkit';
import { call, clients, grpc, meta, statusOf, useGrpcServer, type Clients } from './support';

describe('gRPC AdminService', () => {
  const ctx = useGrpcServer();
  let c: Clients;
  /** The last edge's clients (cluster mode: another edge than `c`). */
  let other: Clients;
  const admin = () => c.admin;
  const asAdmin = () => meta(ctx().server.adminToken);

  beforeAll(() => {
    const addresses = ctx().server.grpcAddresses;
    expect(addresses).toHaveLength(ctx().server.mode === 'cluster' ? 2 : 1);
    c = clients(addresses[0]!);
    other = clients(addresses.at(-1)!);
  });
  afterAll(() => {
    c?.close();
    other?.close();
  });

  const createSession = (req: admin.CreateSessionRequest, m = asAdmin()) =>
    call(admin(), admin().CreateSession, req, m);

  it('CreateSession → the session is attachable over WebSocket and runs its program', async () => {
    const s = await createSession({
      argv: ['/bin/sh'],
      env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      cols: 80,
      rows: 24,
    });
    expect(s.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.instance_id).toBe(ctx().server.instanceId);
    expect(s.argv).toEqual(['/bin/sh']);
    expect([s.cols, s.rows]).toEqual([80, 24]);
    expect(s.created_at?.seconds).toMatch(/^\d+$/);
    expect(s.attach_url).toMatch(
      new RegExp(`^ws://.+/agents/${ctx().server.instanceId}/sessions/${s.session_id}/attach$`),
    );

    const ws: TestClient = await ctx().attach(s.session_id!);
    expect((await joinSession(ws, { role: 'controller' })).roleAssigned.role).toBe('controller');
    ws.input('echo grpc_$((40+2))\n');
    await ws.collectOutput(/grpc_42/, 5000);

    // The same session as the REST API sees it.
    const rest = await http(ctx().server, 'GET', `/api/v1/sessions/${s.session_id}`);
    expect(rest.status).toBe(200);
    expect((rest.body as { session_id: string; argv: string[] }).argv).toEqual(['/bin/sh']);

    const got = await call(other.admin, other.admin.GetSession, { session_id: s.session_id }, asAdmin());
    expect(got.session_id).toBe(s.session_id);
    const list = await call(admin(), admin().ListSessions, {}, asAdmin());
    expect(list.sessions?.map((x) => x.session_id)).toContain(s.session_id);

    const killed = await call(admin(), admin().KillSession, { session_id: s.session_id }, asAdmin());
    expect(killed.session_id).toBe(s.session_id);
    await ws.closed;
  });

  it('tokens: create, authenticate over gRPC and REST, list without secrets, revoke', async () => {
    const created = await call(admin(), admin().CreateToken, { scopes: ['pty:admin'], label: 'grpc-test' }, asAdmin());
    expect(created.secret).toMatch(/^ptyws_/);
    expect(created.token?.scopes).toEqual(['pty:admin']);
    const id = created.token!.token_id!;

    // The new token works on both bindings.
    await call(admin(), admin().ListSessions, {}, meta(created.secret!));
    expect((await http(ctx().server, 'GET', '/api/v1/tokens', { token: created.secret! })).status).toBe(200);

    const listed = await call(admin(), admin().ListTokens, {}, asAdmin());
    const mine = listed.tokens?.find((t) => t.token_id === id);
    expect(mine?.label).toBe('grpc-test');
    expect(JSON.stringify(listed)).not.toContain(created.secret!);

    const revoked = await call(admin(), admin().RevokeToken, { token_id: id }, asAdmin());
    expect(revoked.revoked_at?.seconds).toMatch(/^\d+$/);
    expect((await statusOf(call(admin(), admin().ListSessions, {}, meta(created.secret!)))).code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
  });

  it('auth: no bearer, a bad bearer → UNAUTHENTICATED; a non-admin token → PERMISSION_DENIED', async () => {
    expect((await statusOf(call(admin(), admin().ListSessions, {}, meta(null)))).code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    expect((await statusOf(call(admin(), admin().ListSessions, {}, meta('ptyws_nope')))).code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    const observer = await ctx().mintToken({ scopes: ['pty:observe', 'pty:control'] });
    const denied = await statusOf(call(admin(), admin().ListTokens, {}, meta(observer.token)));
    expect(denied.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(denied.a2a).toMatchObject({ type: 'PermissionDenied' });
  });

  it('bad input → INVALID_ARGUMENT, unknown ids → NOT_FOUND, another instance → NOT_FOUND', async () => {
    const half = await statusOf(createSession({ argv: ['/bin/sh'], cols: 80 }));
    expect(half.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(half.details).toMatch(/cols.*rows/);
    expect((await statusOf(createSession({ argv: ['/bin/sh'], cols: 0, rows: 0 }))).code).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    expect((await statusOf(call(admin(), admin().CreateToken, { scopes: ['root'] }, asAdmin()))).code).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    expect((await statusOf(call(admin(), admin().CreateToken, { scopes: [] }, asAdmin()))).code).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    expect(
      (await statusOf(call(admin(), admin().CreateToken, { scopes: ['pty:observe'], session_id: 'nope' }, asAdmin())))
        .code,
    ).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await statusOf(call(admin(), admin().GetSession, { session_id: 'nope' }, asAdmin()))).code).toBe(
      grpc.status.NOT_FOUND,
    );
    expect((await statusOf(call(admin(), admin().KillSession, {}, asAdmin()))).code).toBe(grpc.status.NOT_FOUND);
    expect((await statusOf(call(admin(), admin().RevokeToken, { token_id: 'nope' }, asAdmin()))).code).toBe(
      grpc.status.NOT_FOUND,
    );
    const elsewhere = meta(ctx().server.adminToken, { 'x-ptyws-instance': 'some-other-instance' });
    expect((await statusOf(call(admin(), admin().ListSessions, {}, elsewhere))).code).toBe(grpc.status.NOT_FOUND);
  });
});
