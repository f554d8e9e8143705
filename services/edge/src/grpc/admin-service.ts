import type * as grpc from '@grpc/grpc-js';
import type { admin } from '@pty-ws/a2a-proto';
import type { FrameLog, SessionRecord, TokenRecord } from '@pty-ws/ports';
import type { AdminCaller, AdminOperations } from '../admin/admin-operations';
import { sessionFields } from '../admin/session-fields';
import { authenticate, instanceOf, sourceAddress, type GrpcCallAuth } from './grpc-context';
import { toServiceError } from './grpc-errors';

export interface AdminServiceDeps extends GrpcCallAuth {
  /** The admin operations the REST API calls too (checks, stores, audit trail). */
  admin: AdminOperations;
  log: FrameLog;
  /** Where attach URLs point: the edge's HTTP/WebSocket port and scheme (the gRPC port is another). */
  httpPort: () => number;
  tls: boolean;
  hotMisses: (sessionId: string) => number;
}

type Handler<Req, Res> = (req: Req, caller: AdminCaller, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>;

/**
 * `ptyws.admin.v1.AdminService`: the REST admin API (`/api/v1/sessions`, `/api/v1/tokens`) over
 * gRPC: the same AdminOperations (the `pty:admin` scope, this edge's instance only, the same field
 * limits, the same audit events), proto messages instead of JSON.
 */
export function adminServiceHandlers(deps: AdminServiceDeps): admin.AdminServiceHandlers {
  const ops = deps.admin;
  const report = (err: unknown) =>
    deps.logger?.error({ err: (err as Error)?.stack ?? String(err) }, 'gRPC admin call failed');
  const rpc =
    <Req, Res>(handler: Handler<Req, Res>) =>
    (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>): void => {
      void (async () => {
        const principal = await authenticate(deps, call);
        deps.admit?.(principal.id, instanceOf(deps, principal, call.metadata));
        ops.authorize(principal);
        return handler(call.request, { principal, audit: { via: 'grpc', source_address: sourceAddress(call) } }, call);
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
      ...sessionFields(rec),
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

  return {
    CreateSession: rpc<admin.CreateSessionRequest__Output, admin.Session>(async (req, caller, call) => {
      const rec = await ops.createSession(
        {
          // proto3: an absent list or map reads as empty, which means "the default" here.
          ...(req.argv && req.argv.length > 0 ? { argv: req.argv } : {}),
          ...(req.command !== undefined ? { command: req.command } : {}),
          ...(req.cwd !== undefined ? { cwd: req.cwd } : {}),
          ...(req.env && Object.keys(req.env).length > 0 ? { env: req.env } : {}),
          ...(req.cols !== undefined ? { cols: req.cols } : {}),
          ...(req.rows !== undefined ? { rows: req.rows } : {}),
          ...(req.session_backend !== undefined ? { backend: req.session_backend } : {}),
          ...(req.session_class !== undefined ? { sessionClass: req.session_class } : {}),
          ...(req.agent_id !== undefined ? { agentId: req.agent_id } : {}),
          ...(req.task_executor !== undefined ? { taskExecutor: req.task_executor } : {}),
        },
        caller,
      );
      return sessionView(rec, attachBase(call));
    }),

    ListSessions: rpc<admin.ListSessionsRequest__Output, admin.ListSessionsResponse>(async (_req, caller, call) => {
      const base = attachBase(call);
      return { sessions: await Promise.all((await ops.listSessions(caller)).map((s) => sessionView(s, base))) };
    }),

    GetSession: rpc<admin.GetSessionRequest__Output, admin.Session>(async (req, caller, call) =>
      sessionView(await ops.getSession(req.session_id ?? '', caller), attachBase(call)),
    ),

    KillSession: rpc<admin.KillSessionRequest__Output, admin.Session>(async (req, caller, call) =>
      sessionView(await ops.killSession(req.session_id ?? '', caller), attachBase(call)),
    ),

    CreateToken: rpc<admin.CreateTokenRequest__Output, admin.CreateTokenResponse>(async (req, caller) => {
      const { record, secret } = await ops.createToken(
        {
          scopes: req.scopes ?? [],
          ...(req.instance_id !== undefined ? { instanceId: req.instance_id } : {}),
          ...(req.session_id !== undefined ? { sessionId: req.session_id } : {}),
          ...(req.ttl_seconds !== undefined ? { ttlSeconds: req.ttl_seconds } : {}),
          ...(req.label !== undefined ? { label: req.label } : {}),
        },
        caller,
      );
      return { token: tokenView(record), secret };
    }),

    ListTokens: rpc<admin.ListTokensRequest__Output, admin.ListTokensResponse>(async (_req, caller) => ({
      tokens: (await ops.listTokens(caller)).map(tokenView),
    })),

    RevokeToken: rpc<admin.RevokeTokenRequest__Output, admin.Token>(async (req, caller) =>
      tokenView(await ops.revokeToken(req.token_id ?? '', caller)),
    ),
  };
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
