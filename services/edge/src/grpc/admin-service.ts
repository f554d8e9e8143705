import type * as grpc from '@grpc/grpc-js';
import { A2aError } from '@pty-ws/a2a';
import type { admin } from '@pty-ws/a2a-proto';
import type { FrameLog, SessionControl, SessionRecord, SessionRegistry, TokenRecord, TokenStore } from '@pty-ws/ports';
import { BindingError, SCOPES, newId, type Scope } from '@pty-ws/protocol';
import { generateToken, hashToken, isAdmin, type Principal } from '../auth';
import { authenticate, instanceOf, type GrpcCallAuth } from './grpc-context';
import { NotFoundError, toServiceError } from './grpc-errors';

export interface AdminServiceDeps extends GrpcCallAuth {
  control: SessionControl;
  registry: SessionRegistry;
  tokens: TokenStore;
  log: FrameLog;
  /** Where attach URLs point: the edge's HTTP/WebSocket port and scheme (the gRPC port is another). */
  httpPort: () => number;
  tls: boolean;
  hotMisses: (sessionId: string) => number;
  /** Closes live connections of a revoked token (here and, in cluster mode, on every edge). */
  onTokenRevoked: (tokenId: string) => void;
  /** Told of each admin action, like the REST API's audit trail. */
  onAdminAction?: (principal: Principal, action: string, detail: Record<string, unknown>, sessionId?: string) => void;
}

const MAX_TTL_S = 10 * 365 * 86400;

type Handler<Req, Res> = (req: Req, principal: Principal, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>;

/**
 * `ptyws.admin.v1.AdminService`: the REST admin API (`/api/v1/sessions`, `/api/v1/tokens`) over
 * gRPC, on the same SessionControl, SessionRegistry and TokenStore, with the same checks: the
 * `pty:admin` scope, this edge's instance only, the same field limits.
 */
export function adminServiceHandlers(deps: AdminServiceDeps): admin.AdminServiceHandlers {
  const report = (err: unknown) =>
    deps.logger?.error({ err: (err as Error)?.stack ?? String(err) }, 'gRPC admin call failed');
  const rpc =
    <Req, Res>(handler: Handler<Req, Res>) =>
    (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>): void => {
      void (async () => {
        const principal = await authenticate(deps, call.metadata);
        instanceOf(deps, principal, call.metadata);
        if (!isAdmin(principal)) throw new A2aError('PermissionDenied', 'this service needs the pty:admin scope');
        return handler(call.request, principal, call);
      })().then(
        (res) => callback(null, res),
        (err: unknown) => callback(toServiceError(err, report)),
      );
    };

  const attachBase = (call: grpc.ServerUnaryCall<unknown, unknown>) => {
    // The host the caller reached us by, on the HTTP port (attach is WebSocket, not gRPC).
    const authority = call.getHost();
    const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.split(':')[0];
    return `${deps.tls ? 'wss' : 'ws'}://${host}:${deps.httpPort()}`;
  };

  const sessionView = async (rec: SessionRecord, base: string): Promise<admin.Session> => {
    const bounds = await deps.log.bounds(rec.sessionId);
    return {
      session_id: rec.sessionId,
      instance_id: rec.instanceId,
      agent_id: rec.agentId,
      state: rec.state,
      argv: rec.spec.argv,
      cwd: rec.spec.cwd,
      cols: rec.spec.size.cols,
      rows: rec.spec.size.rows,
      session_backend: rec.spec.backend,
      session_class: rec.spec.sessionClass,
      ...(rec.pid !== undefined ? { pid: rec.pid } : {}),
      created_at: timestamp(rec.createdAt),
      ...(rec.closedAt ? { closed_at: timestamp(rec.closedAt) } : {}),
      ...(rec.exitCode !== undefined && rec.exitCode !== null ? { exit_code: rec.exitCode } : {}),
      ...(rec.closedReason ? { closed_reason: rec.closedReason } : {}),
      attach_url: `${base}/agents/${rec.instanceId}/sessions/${rec.sessionId}/attach`,
      replay: {
        first_sequence: String(bounds.firstSeq),
        last_sequence: String(bounds.lastSeq),
        hot_window_misses: String(deps.hotMisses(rec.sessionId)),
      },
    };
  };

  const findSession = async (id: string): Promise<SessionRecord> => {
    const rec = id ? await deps.registry.get(id) : undefined;
    if (!rec || rec.instanceId !== deps.instanceId) throw new NotFoundError(`session '${id}' not found`);
    return rec;
  };

  return {
    CreateSession: rpc<admin.CreateSessionRequest__Output, admin.Session>(async (req, principal, call) => {
      const cols = req.cols;
      const rows = req.rows;
      if ((cols === undefined) !== (rows === undefined))
        throw new BindingError('INVALID_REQUEST', "give both 'cols' and 'rows' or neither");
      for (const [k, v] of [
        ['cols', cols],
        ['rows', rows],
      ] as const) {
        if (v !== undefined && (v < 1 || v > 100000)) throw fieldError(k, 'an integer in 1..100000');
      }
      const command = limited(req.command, 'command', 65536);
      const cwd = limited(req.cwd, 'cwd', 4096);
      const agentId = limited(req.agent_id, 'agent_id', 128);
      const backend = limited(req.session_backend, 'session_backend', 4096);
      const sessionClass = limited(req.session_class, 'session_class', 4096);
      const taskExecutor = limited(req.task_executor, 'task_executor', 4096);
      const env = req.env ?? {};
      const rec = await deps.control.createSession({
        instanceId: deps.instanceId,
        ...(req.argv && req.argv.length > 0 ? { argv: req.argv } : {}),
        ...(command !== undefined ? { command } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        ...(Object.keys(env).length > 0 ? { env } : {}),
        ...(cols !== undefined && rows !== undefined ? { size: { cols, rows } } : {}),
        // Validated by the owner, as for the REST API.
        ...(backend !== undefined ? { backend: backend as never } : {}),
        ...(sessionClass !== undefined ? { sessionClass: sessionClass as never } : {}),
        ...(agentId !== undefined ? { agentId } : {}),
        ...(taskExecutor !== undefined ? { taskExecutor: taskExecutor as never } : {}),
      });
      deps.onAdminAction?.(
        principal,
        'session_create',
        { agent_id: rec.agentId, backend: rec.spec.backend, program: rec.spec.argv[0] ?? null, via: 'grpc' },
        rec.sessionId,
      );
      return sessionView(rec, attachBase(call));
    }),

    ListSessions: rpc<admin.ListSessionsRequest__Output, admin.ListSessionsResponse>(async (_req, _p, call) => {
      const list = await deps.registry.list({ instanceId: deps.instanceId });
      list.sort((a, b) => a.createdAt - b.createdAt);
      const base = attachBase(call);
      return { sessions: await Promise.all(list.map((s) => sessionView(s, base))) };
    }),

    GetSession: rpc<admin.GetSessionRequest__Output, admin.Session>(async (req, _p, call) =>
      sessionView(await findSession(req.session_id ?? ''), attachBase(call)),
    ),

    KillSession: rpc<admin.KillSessionRequest__Output, admin.Session>(async (req, principal, call) => {
      const rec = await findSession(req.session_id ?? '');
      await deps.control.killSession(rec.sessionId);
      deps.onAdminAction?.(principal, 'session_kill', { via: 'grpc' }, rec.sessionId);
      return sessionView((await deps.registry.get(rec.sessionId)) ?? rec, attachBase(call));
    }),

    CreateToken: rpc<admin.CreateTokenRequest__Output, admin.CreateTokenResponse>(async (req, principal) => {
      const scopes = req.scopes ?? [];
      if (scopes.length === 0 || scopes.some((s) => !SCOPES.includes(s as Scope)))
        throw fieldError('scopes', `a non-empty list of ${SCOPES.join(', ')}`);
      const instanceId = limited(req.instance_id, 'instance_id', 128) ?? deps.instanceId;
      if (instanceId !== deps.instanceId)
        throw new BindingError('INVALID_REQUEST', `instance '${instanceId}' is not served here`);
      const sessionId = limited(req.session_id, 'session_id', 128);
      if (sessionId !== undefined && !(await deps.registry.get(sessionId)))
        throw new BindingError('INVALID_REQUEST', `session '${sessionId}' not found`);
      const ttl = req.ttl_seconds;
      if (ttl !== undefined && (ttl < 1 || ttl > MAX_TTL_S))
        throw fieldError('ttl_seconds', `an integer in 1..${MAX_TTL_S}`);
      const label = limited(req.label, 'label', 256);
      const secret = generateToken();
      const now = Date.now();
      const rec: TokenRecord = {
        tokenId: newId(),
        hash: hashToken(secret),
        scopes: [...new Set(scopes as Scope[])],
        instanceId,
        createdBy: principal.id,
        createdAt: now,
        ...(sessionId !== undefined ? { sessionId } : {}),
        ...(label !== undefined ? { label } : {}),
        ...(ttl !== undefined ? { expiresAt: now + ttl * 1000 } : {}),
      };
      await deps.tokens.insert(rec);
      deps.onAdminAction?.(
        principal,
        'token_create',
        {
          token_id: rec.tokenId,
          scopes: rec.scopes,
          label: rec.label ?? null,
          expires_at: rec.expiresAt ?? null,
          via: 'grpc',
        },
        rec.sessionId,
      );
      return { token: tokenView(rec), secret };
    }),

    ListTokens: rpc<admin.ListTokensRequest__Output, admin.ListTokensResponse>(async () => ({
      tokens: (await deps.tokens.list({ instanceId: deps.instanceId })).map(tokenView),
    })),

    RevokeToken: rpc<admin.RevokeTokenRequest__Output, admin.Token>(async (req, principal) => {
      const id = req.token_id ?? '';
      const known = await deps.tokens.get(id);
      if (!id || !known || known.instanceId !== deps.instanceId || !(await deps.tokens.revoke(id, Date.now())))
        throw new NotFoundError(`token '${id}' not found`);
      deps.onTokenRevoked(id);
      deps.onAdminAction?.(principal, 'token_revoke', { token_id: id, via: 'grpc' });
      return tokenView((await deps.tokens.get(id)) ?? known);
    }),
  };
}

function fieldError(field: string, expected: string): BindingError {
  return new BindingError('INVALID_REQUEST', `field '${field}' must be ${expected}`);
}

/** An optional string field: absent stays absent, longer than `max` is INVALID_ARGUMENT. */
function limited(v: string | undefined, field: string, max: number): string | undefined {
  if (v === undefined) return undefined;
  if (v.length > max) throw fieldError(field, `a string of at most ${max} characters`);
  return v;
}

function timestamp(ms: number): { seconds: string; nanos: number } {
  return { seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 };
}

function tokenView(t: TokenRecord): admin.Token {
  return {
    token_id: t.tokenId,
    scopes: t.scopes,
    instance_id: t.instanceId,
    ...(t.sessionId ? { session_id: t.sessionId } : {}),
    ...(t.label ? { label: t.label } : {}),
    created_by: t.createdBy,
    created_at: timestamp(t.createdAt),
    ...(t.expiresAt ? { expires_at: timestamp(t.expiresAt) } : {}),
    ...(t.lastUsedAt ? { last_used_at: timestamp(t.lastUsedAt) } : {}),
    ...(t.revokedAt ? { revoked_at: timestamp(t.revokedAt) } : {}),
  };
}
