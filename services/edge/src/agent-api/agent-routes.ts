import { BindingError, errorPayload } from '@pty-ws/protocol';
import {
  isSessionEndedError,
  type FrameLog,
  type ScreenFormat,
  type SessionControl,
  type SessionRecord,
  type SessionScreen,
  type TranscriptArchive,
} from '@pty-ws/ports';
import { canObserve, type Principal } from '../auth';
import type { EdgeAudit } from '../audit/edge-audit';
import { sendJson, type Responder } from '../http/respond';
import { SessionWait, type WaitOutcome } from './session-wait';
import { WaitGate } from './wait-gate';
import { parseWaitQuery } from './wait-query';
import type { Route, RouteRequest } from '../transcript/transcript-route';

export interface AgentRouteDeps {
  control: Pick<SessionControl, 'screen'>;
  log: FrameLog;
  transcripts?: TranscriptArchive;
  /** Throws a "not found" for a session unknown here or outside the principal's binding (transcript-route.ts). */
  findSession(id: string, principal: Principal): Promise<SessionRecord>;
  notFound(err: unknown, r: Responder): void;
  /** Screen reads and waits disclose output, like transcript reads; absent: not recorded. */
  audit?: Pick<EdgeAudit, 'transcriptRead'>;
  /** Waits open at once per principal, and on this edge; defaults WAITS_PER_PRINCIPAL, WAITS_PER_EDGE. */
  waitsPerPrincipal?: number;
  waitsPerEdge?: number;
}

export const WAITS_PER_PRINCIPAL = 8;
/** At most ~256 KiB each (a regex wait's line, output-scan.ts): ~64 MiB for an edge's waits. */
export const WAITS_PER_EDGE = 256;
/** Seconds a refused wait is told to wait before trying again. */
const WAIT_RETRY_AFTER_S = 1;

function observer(principal: Principal, what: string): void {
  if (!canObserve(principal)) throw new BindingError('PERMISSION_DENIED', `${what} needs the pty:observe scope`);
}

function screenFormat(query: string): ScreenFormat {
  const params = new URLSearchParams(query);
  for (const key of params.keys()) {
    if (key !== 'format') throw new BindingError('INVALID_REQUEST', `unknown parameter '${key}' (known: format)`);
  }
  const format = params.get('format') ?? 'text';
  if (format !== 'text' && format !== 'ansi')
    throw new BindingError('INVALID_REQUEST', `'format' must be text or ansi`);
  return format;
}

/** A closed session has no screen any more (its output stays in the transcript). */
function sessionEnded(r: Responder, rec: SessionRecord): void {
  const message = `session '${rec.sessionId}' has ended: read its transcript instead`;
  sendJson(r, 409, { error: errorPayload('INVALID_REQUEST', message) });
}

function waitAnswer(sessionId: string, o: WaitOutcome): Record<string, unknown> {
  return {
    session_id: sessionId,
    condition: o.condition,
    matched: o.condition === 'match',
    quiet: o.condition === 'quiet',
    timed_out: o.condition === 'timeout',
    closed: o.condition === 'closed',
    match: o.match ? { text: o.match.text, seq: o.match.startSeq, end_seq: o.match.endSeq } : null,
    ...(o.exitCode !== undefined ? { exit_code: o.exitCode } : {}),
    from_seq: o.fromSeq,
    last_seq: o.lastSeq,
    output: o.output,
    output_truncated: o.outputChars > o.output.length,
  };
}

/**
 * What a program driving a terminal asks for besides the transcript: `GET …/screen` (the screen
 * as text, from the owner's mirror) and `GET …/wait` (a long poll until output matches, goes
 * quiet, the session ends or the timeout passes). Both need only pty:observe on the session.
 */
export function mountAgentRoutes(route: Route, deps: AgentRouteDeps): void {
  /** The session the path names, or undefined once a 404 (or the lookup's error) was answered. */
  const sessionOf = async (r: Responder, req: RouteRequest, principal: Principal) => {
    try {
      return await deps.findSession(req.params[0]!, principal);
    } catch (err) {
      deps.notFound(err, r);
      return undefined;
    }
  };

  route('/api/v1/sessions/:id/screen', async (r, req, principal) => {
    observer(principal, 'reading the screen');
    const format = screenFormat(req.query);
    const rec = await sessionOf(r, req, principal);
    if (!rec) return;
    if (rec.state === 'closed') return sessionEnded(r, rec);
    deps.audit?.transcriptRead(principal, rec.sessionId, {
      format: format === 'ansi' ? 'screen_ansi' : 'screen',
      via: 'http',
      source_address: req.sourceAddress || null,
    });
    let screen: SessionScreen;
    try {
      screen = await deps.control.screen(rec.sessionId, format);
    } catch (err) {
      // Ended between the lookup and the owner's answer (its record may still say running).
      if (isSessionEndedError(err)) return sessionEnded(r, rec);
      throw err;
    }
    sendJson(r, 200, { session_id: rec.sessionId, format, ...screen });
  });

  const gate = new WaitGate(deps.waitsPerPrincipal ?? WAITS_PER_PRINCIPAL, deps.waitsPerEdge ?? WAITS_PER_EDGE);
  route('/api/v1/sessions/:id/wait', async (r, req, principal) => {
    observer(principal, 'waiting on output');
    const query = parseWaitQuery(req.query);
    const rec = await sessionOf(r, req, principal);
    if (!rec) return;
    const release = gate.tryEnter(principal.id);
    if (!release) {
      const message = 'too many waits of this principal (or on this edge) are open';
      return sendJson(
        r,
        429,
        { error: errorPayload('RATE_LIMITED', message) },
        { 'retry-after': String(WAIT_RETRY_AFTER_S) },
      );
    }
    deps.audit?.transcriptRead(principal, rec.sessionId, {
      format: 'wait',
      via: 'http',
      from_seq: query.fromSeq ?? null,
      search: query.pattern !== undefined,
      source_address: req.sourceAddress || null,
    });
    const wait = new SessionWait(rec.sessionId, query, {
      log: deps.log,
      ...(deps.transcripts ? { transcripts: deps.transcripts } : {}),
      isClosed: async () => (await deps.findSession(rec.sessionId, principal)).state === 'closed',
    });
    r.onAbort = () => {
      wait.cancel(); // its answer never comes: the wait's place is given back here
      release();
    };
    try {
      if (r.aborted) return;
      sendJson(r, 200, waitAnswer(rec.sessionId, await wait.run()));
    } finally {
      release();
    }
  });
}
