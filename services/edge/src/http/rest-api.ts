import { BindingError, SCOPES } from '@pty-ws/protocol';
import type { Config } from '@pty-ws/config';
import type { FrameLog, MembershipStore, SessionRecord, TokenRecord, TranscriptArchive } from '@pty-ws/ports';
import type { MetricsExposition } from '@pty-ws/telemetry';
import {
  MAX_TTL_S,
  NotFoundError,
  fieldError,
  type AdminCaller,
  type AdminOperations,
} from '../admin/admin-operations';
import { sessionFields } from '../admin/session-fields';
import type { TransportPolicy } from '../transport';
import { refusedTransport, transportOf } from './transport-gate';
import { bearerFromHeader, type Authenticator, type Principal } from '../auth';
import type { TemplatedApp, HttpRequest } from '../uws';
import { agentCard } from './agent-card';
import { mountTranscriptRoute } from '../transcript/transcript-route';
import { membersOf, replayCounters } from '../transcript/session-counters';
import { readJson, responder, sendCaught, sendError, sendJson, sendText, type Responder } from './respond';

const BODY_LIMIT = 256 * 1024;

export interface RestDeps {
  /** The A2A control-plane bindings are mounted: the AgentCard lists them and push notifications. */
  a2a?: boolean;
  config: Config;
  /** Sessions and tokens: the checks, stores and audit trail gRPC AdminService shares. */
  admin: AdminOperations;
  log: FrameLog;
  auth: Authenticator;
  ready: () => boolean;
  hotMisses: (sessionId: string) => number;
  /** Served unauthenticated at GET /metrics (scrapers; NetworkPolicy limits who reaches it). */
  metrics?: MetricsExposition;
  /** Frames evicted from the log (transcript API, replay counters); none: the log is all there is. */
  transcripts?: TranscriptArchive;
  /** Who is attached (the owner saves it after each change): `members` counts. */
  membership?: MembershipStore;
  /** Plain-http refusal and mTLS identities, like attach upgrades; absent: every transport is accepted. */
  transport?: TransportPolicy;
}

interface Req {
  method: string;
  url: string;
  host: string;
  authorization: string;
  params: string[];
  /** The raw query string, without `?`. */
  query: string;
  /**
   * The JSON body, read from the moment the request arrives: uWS delivers body chunks only to an
   * onData attached synchronously in the handler, so reading after an await (auth against
   * Postgres) would wait forever.
   */
  body: Promise<unknown>;
}

type Handler = (r: Responder, req: Req, caller: AdminCaller) => Promise<unknown>;

function snapshotRequest(r: Responder, req: HttpRequest, paramCount: number, hasBody: boolean): Req {
  const params: string[] = [];
  for (let i = 0; i < paramCount; i++) params.push(decodeURIComponent(req.getParameter(i) ?? ''));
  const body = hasBody ? readJson(r, BODY_LIMIT) : Promise.resolve({});
  body.catch(() => undefined); // a bad body is reported when the handler awaits it, not as unhandled
  return {
    method: req.getMethod(),
    url: req.getUrl(),
    host: req.getHeader('host'),
    authorization: req.getHeader('authorization'),
    params,
    query: req.getQuery() ?? '',
    body,
  };
}

function asObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BindingError('INVALID_REQUEST', 'request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function optString(b: Record<string, unknown>, k: string, max = 4096): string | undefined {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length > max) throw fieldError(k, `a string of at most ${max} characters`);
  return v;
}

function optInt(b: Record<string, unknown>, k: string, min: number, max: number): number | undefined {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw fieldError(k, `an integer in ${min}..${max}`);
  return v;
}

const SESSION_FIELDS = new Set([
  'argv',
  'command',
  'cwd',
  'env',
  'cols',
  'rows',
  'session_backend',
  'backend',
  'session_class',
  'session_id',
  'agent_id',
  'task_executor',
]);
const TOKEN_FIELDS = new Set(['scopes', 'instance_id', 'session_id', 'ttl_seconds', 'label']);

function rejectUnknown(b: Record<string, unknown>, allowed: Set<string>): void {
  for (const k of Object.keys(b))
    if (!allowed.has(k)) throw new BindingError('INVALID_REQUEST', `unknown field '${k}'`);
}

/** The admin REST API (sessions, tokens), the AgentCard and health endpoints. */
export function mountRestApi(app: TemplatedApp, deps: RestDeps): void {
  const { config } = deps;
  // Behind TLS the URLs handed out (attach_url, AgentCard) must be the secure ones clients can use.
  const tls = config.tlsCert !== undefined && config.tlsKey !== undefined;
  const origin = (host: string) =>
    tls ? { http: `https://${host}`, ws: `wss://${host}` } : { http: `http://${host}`, ws: `ws://${host}` };

  const route = (method: 'get' | 'post' | 'del', pattern: string, params: number, admin: boolean, handler: Handler) => {
    app[method](pattern, (res, req) => {
      const r = responder(res);
      const verdict = transportOf(deps.transport, res, req);
      const snapshot = snapshotRequest(r, req, params, method === 'post');
      if (refusedTransport(r, verdict)) return;
      void (async () => {
        let principal: Principal;
        try {
          principal = await deps.auth.authenticate(
            bearerFromHeader(snapshot.authorization),
            verdict.ok ? verdict.certificate : undefined,
          );
        } catch (err) {
          return sendCaught(r, err);
        }
        if (admin) {
          try {
            deps.admin.authorize(principal);
          } catch (err) {
            return sendCaught(r, err);
          }
        }
        await handler(r, snapshot, { principal });
      })().catch((err: unknown) => sendCaught(r, err));
    });
  };

  const sessionView = async (rec: SessionRecord, host: string) => {
    const [bounds, archived, members] = await Promise.all([
      deps.log.bounds(rec.sessionId),
      deps.transcripts?.stats(rec.sessionId).catch(() => undefined),
      membersOf(deps.membership, rec),
    ]);
    return {
      ...sessionFields(rec),
      pid: rec.pid ?? null,
      created_at: new Date(rec.createdAt).toISOString(),
      closed_at: rec.closedAt ? new Date(rec.closedAt).toISOString() : null,
      exit_code: rec.exitCode ?? null,
      closed_reason: rec.closedReason ?? null,
      attach_url: `${origin(host).ws}/agents/${rec.instanceId}/sessions/${rec.sessionId}/attach`,
      members,
      replay: {
        first_sequence: bounds.firstSeq,
        last_sequence: bounds.lastSeq,
        hot_window_misses: deps.hotMisses(rec.sessionId),
        ...replayCounters(bounds, archived),
      },
    };
  };

  route('post', '/api/v1/sessions', 0, true, async (r, req, caller) => {
    const b = asObject(await req.body);
    rejectUnknown(b, SESSION_FIELDS);
    const argv = b['argv'];
    if (argv !== undefined && (!Array.isArray(argv) || argv.some((a) => typeof a !== 'string')))
      throw fieldError('argv', 'an array of strings');
    const env = b['env'];
    if (
      env !== undefined &&
      (env === null ||
        typeof env !== 'object' ||
        Array.isArray(env) ||
        Object.values(env).some((v) => typeof v !== 'string'))
    ) {
      throw fieldError('env', 'an object of string values');
    }
    const cols = optInt(b, 'cols', 1, 100000);
    const rows = optInt(b, 'rows', 1, 100000);
    const backend = optString(b, 'session_backend') ?? optString(b, 'backend');
    const sessionClass = optString(b, 'session_class');
    const command = optString(b, 'command', 65536);
    const cwd = optString(b, 'cwd');
    const agentId = optString(b, 'agent_id', 128);
    const taskExecutor = optString(b, 'task_executor');
    const rec = await deps.admin.createSession(
      {
        ...(argv ? { argv: argv as string[] } : {}),
        ...(command !== undefined ? { command } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        ...(env ? { env: env as Record<string, string> } : {}),
        ...(cols !== undefined ? { cols } : {}),
        ...(rows !== undefined ? { rows } : {}),
        ...(backend !== undefined ? { backend } : {}),
        ...(sessionClass !== undefined ? { sessionClass } : {}),
        ...(agentId !== undefined ? { agentId } : {}),
        ...(taskExecutor !== undefined ? { taskExecutor } : {}),
      },
      caller,
    );
    sendJson(r, 201, await sessionView(rec, req.host));
  });

  route('get', '/api/v1/sessions', 0, true, async (r, req) => {
    const list = await deps.admin.listSessions();
    sendJson(r, 200, { sessions: await Promise.all(list.map((s) => sessionView(s, req.host))) });
  });

  const findSession = (id: string): Promise<SessionRecord> => deps.admin.getSession(id);
  const notFound = (err: unknown, r: Responder) => {
    if (err instanceof NotFoundError) {
      return sendJson(r, 404, { error: err.toPayload() });
    }
    return sendCaught(r, err);
  };

  route('get', '/api/v1/sessions/:id', 1, true, async (r, req) => {
    try {
      sendJson(r, 200, await sessionView(await findSession(req.params[0]!), req.host));
    } catch (err) {
      notFound(err, r);
    }
  });

  // pty:observe is enough here (scoped tokens: their own session/instance only).
  mountTranscriptRoute(
    (pattern, handler) => route('get', pattern, 1, false, (r, req, caller) => handler(r, req, caller.principal)),
    {
      log: deps.log,
      ...(deps.transcripts ? { transcripts: deps.transcripts } : {}),
      findSession,
      notFound,
    },
  );

  route('del', '/api/v1/sessions/:id', 1, true, async (r, req, caller) => {
    let rec: SessionRecord;
    try {
      rec = await deps.admin.killSession(req.params[0]!, caller);
    } catch (err) {
      return notFound(err, r);
    }
    sendJson(r, 200, await sessionView(rec, req.host));
  });

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
    const { record, secret } = await deps.admin.createToken(
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

  route('get', '/api/v1/tokens', 0, true, async (r) => {
    sendJson(r, 200, { tokens: (await deps.admin.listTokens()).map(tokenView) });
  });

  route('del', '/api/v1/tokens/:id', 1, true, async (r, req, caller) => {
    try {
      sendJson(r, 200, tokenView(await deps.admin.revokeToken(req.params[0]!, caller)));
    } catch (err) {
      notFound(err, r);
    }
  });

  app.get('/agents/:instance/.well-known/agent-card.json', (res, req) => {
    const r = responder(res);
    const instance = decodeURIComponent(req.getParameter(0) ?? '');
    const host = req.getHeader('host');
    if (instance !== config.instanceId) {
      return sendJson(r, 404, {
        error: new BindingError('INVALID_REQUEST', `instance '${instance}' not found`).toPayload(),
      });
    }
    sendJson(r, 200, agentCard(config, instance, origin(host), deps.a2a ?? false));
  });

  app.get('/healthz', (res) => sendJson(responder(res), 200, { status: 'ok' }));
  app.get('/readyz', (res) => {
    const ok = deps.ready();
    sendJson(responder(res), ok ? 200 : 503, { status: ok ? 'ready' : 'not ready' });
  });

  const exposition = deps.metrics;
  if (exposition) {
    app.get('/metrics', (res) => {
      const r = responder(res);
      exposition.text().then(
        (text) => sendText(r, 200, text, exposition.contentType),
        () => sendError(r, 'INTERNAL', 'metrics unavailable'),
      );
    });
  }

  // Every unmatched path gets a JSON 404 (uWS would otherwise just close the connection).
  app.any('/*', (res) => {
    sendJson(responder(res), 404, { error: new BindingError('INVALID_REQUEST', 'no such endpoint').toPayload() });
  });
}
