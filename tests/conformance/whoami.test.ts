/** `GET /api/v1/whoami`: any valid token learns what it may do (clients offer only that). */
import { createSession, http, isRecord, mintToken } from '@pty-ws/testkit';
import { shell, useServer } from './support';

describe('GET /api/v1/whoami', () => {
  const ctx = useServer();

  it('tells an admin token its scopes and abilities', async () => {
    const res = await http(ctx().server, 'GET', '/api/v1/whoami');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      scopes: expect.arrayContaining(['pty:admin']) as unknown,
      may: { observe: true, control: true, admin: true },
    });
  });

  it('tells a session-bound observe-only token that it may only observe, and where', async () => {
    const { session_id: sessionId } = await createSession(ctx().server, shell());
    const t = await mintToken(ctx().server, { scopes: ['pty:observe'], session_id: sessionId, ttl_seconds: 60 });
    const res = await http(ctx().server, 'GET', '/api/v1/whoami', { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      scopes: ['pty:observe'],
      session_id: sessionId,
      may: { observe: true, control: false, admin: false },
    });
    expect(isRecord(res.body) && typeof res.body['expires_at'] === 'string').toBe(true);
  });

  it('refuses an unknown token with 401', async () => {
    const res = await http(ctx().server, 'GET', '/api/v1/whoami', { token: 'ptyws_unknown' });
    expect(res.status).toBe(401);
  });
});
