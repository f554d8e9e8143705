import type { FrameLog, MembershipStore, SessionControl, SessionRecord, TranscriptArchive } from '@pty-ws/ports';
import { fieldError, type AdminOperations } from '../../admin/admin-operations';
import type { Principal } from '../../auth';
import { sessionFields } from '../../admin/session-fields';
import type { EdgeAudit } from '../../audit/edge-audit';
import { mountTranscriptRoute } from '../../transcript/transcript-route';
import { mountAgentRoutes } from '../../agent-api/agent-routes';
import { membersOf, replayCounters } from '../../transcript/session-counters';
import { sendJson, type Responder } from '../respond';
import { asObject, optInt, optString, rejectUnknown } from './body';
import { notFound, type Req, type Route } from './route';

export interface SessionRouteDeps {
  admin: AdminOperations;
  control: Pick<SessionControl, 'screen'>;
  log: FrameLog;
  /** The URL origins handed out (attach_url): the secure ones behind TLS. */
  origin: (host: string) => { http: string; ws: string };
  hotMisses: (sessionId: string) => number;
  transcripts?: TranscriptArchive;
  membership?: MembershipStore;
  audit?: EdgeAudit;
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

/**
 * `/api/v1/sessions`: create, list, get, kill, the transcript (transcript-route.ts), the screen
 * and waits (agent-api/agent-routes.ts).
 */
export function mountSessionRoutes(route: Route, deps: SessionRouteDeps): void {
  const { origin } = deps;
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

  route('get', '/api/v1/sessions', 0, true, async (r, req, caller) => {
    const list = await deps.admin.listSessions(caller);
    sendJson(r, 200, { sessions: await Promise.all(list.map((s) => sessionView(s, req.host))) });
  });

  const findSession = (id: string, principal: Principal): Promise<SessionRecord> =>
    deps.admin.getSession(id, { principal });

  route('get', '/api/v1/sessions/:id', 1, true, async (r, req, caller) => {
    try {
      sendJson(r, 200, await sessionView(await deps.admin.getSession(req.params[0]!, caller), req.host));
    } catch (err) {
      notFound(err, r);
    }
  });

  // pty:observe is enough here (scoped tokens: their own session/instance only).
  const observeRoute = (
    pattern: string,
    handler: (r: Responder, req: Req, principal: Principal) => Promise<unknown>,
  ): void => route('get', pattern, 1, false, (r, req, caller) => handler(r, req, caller.principal));
  mountAgentRoutes(observeRoute, {
    control: deps.control,
    log: deps.log,
    ...(deps.transcripts ? { transcripts: deps.transcripts } : {}),
    findSession,
    notFound,
    ...(deps.audit ? { audit: deps.audit } : {}),
  });
  mountTranscriptRoute(observeRoute, {
    log: deps.log,
    ...(deps.transcripts ? { transcripts: deps.transcripts } : {}),
    findSession,
    notFound,
    ...(deps.audit ? { audit: deps.audit } : {}),
  });

  route('del', '/api/v1/sessions/:id', 1, true, async (r, req, caller) => {
    let rec: SessionRecord;
    try {
      rec = await deps.admin.killSession(req.params[0]!, caller);
    } catch (err) {
      return notFound(err, r);
    }
    sendJson(r, 200, await sessionView(rec, req.host));
  });
}
