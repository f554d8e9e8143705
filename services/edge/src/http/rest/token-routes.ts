import { SCOPES } from '@pty-ws/protocol';
import type { TokenRecord } from '@pty-ws/ports';
import { MAX_TTL_S, fieldError, type AdminOperations } from '../../admin/admin-operations';
import { sendJson } from '../respond';
import { asObject, optInt, optString, rejectUnknown } from './body';
import { notFound, type Route } from './route';
import { canControl, canObserve, isAdmin } from '../../auth';

const TOKEN_FIELDS = new Set(['scopes', 'instance_id', 'session_id', 'ttl_seconds', 'label']);

const tokenView = (t: TokenRecord) => ({
  token_id: t.tokenId,
  scopes: t.scopes,
  instance_id: t.instanceId,
  session_id: t.sessionId ?? null,
  label: t.label ?? null,
  created_by: t.createdBy,
  created_at: new Date(t.createdAt).toISOString(),
  expires_at: t.expiresAt ? new Date(t.expiresAt).toISOString() : null,
  last_used_at: t.lastUsedAt ? new Date(t.lastUsedAt).toISOString() : null,
  revoked_at: t.revokedAt ? new Date(t.revokedAt).toISOString() : null,
});

/** `/api/v1/tokens`: issue, list, revoke; `/api/v1/whoami`: what the caller's own token may do. */
export function mountTokenRoutes(route: Route, admin: AdminOperations): void {
  // Any authenticated caller: a client (the dashboard) shows only the actions its token allows.
  route('get', '/api/v1/whoami', 0, false, (r, _req, { principal: p }) => {
    sendJson(r, 200, {
      principal_id: p.id,
      kind: p.kind ?? 'token',
      scopes: [...p.scopes].sort(),
      instance_id: p.instanceId ?? null,
      session_id: p.sessionId ?? null,
      expires_at: p.expiresAt ? new Date(p.expiresAt).toISOString() : null,
      may: { observe: canObserve(p), control: canControl(p), admin: isAdmin(p) },
    });
    return Promise.resolve();
  });

  route('post', '/api/v1/tokens', 0, true, async (r, req, caller) => {
    const b = asObject(await req.body);
    rejectUnknown(b, TOKEN_FIELDS);
    const scopes = b['scopes'];
    if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string')) {
      throw fieldError('scopes', `a non-empty array of ${SCOPES.join(', ')}`);
    }
    const instanceId = optString(b, 'instance_id', 128);
    const sessionId = optString(b, 'session_id', 128);
    const ttlSeconds = optInt(b, 'ttl_seconds', 1, MAX_TTL_S);
    const label = optString(b, 'label', 256);
    const { record, secret } = await admin.createToken(
      {
        scopes: scopes as string[],
        ...(instanceId !== undefined ? { instanceId } : {}),
        ...(sessionId !== undefined ? { sessionId } : {}),
        ...(ttlSeconds !== undefined ? { ttlSeconds } : {}),
        ...(label !== undefined ? { label } : {}),
      },
      caller,
    );
    sendJson(r, 201, { ...tokenView(record), token: secret });
  });

  route('get', '/api/v1/tokens', 0, true, async (r, _req, caller) => {
    sendJson(r, 200, { tokens: (await admin.listTokens(caller)).map(tokenView) });
  });

  route('del', '/api/v1/tokens/:id', 1, true, async (r, req, caller) => {
    try {
      sendJson(r, 200, tokenView(await admin.revokeToken(req.params[0]!, caller)));
    } catch (err) {
      notFound(err, r);
    }
  });
}
