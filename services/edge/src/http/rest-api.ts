import { BindingError } from '@pty-ws/protocol';
import type { Config } from '@pty-ws/config';
import type { FrameLog, MembershipStore, SessionControl, TranscriptArchive } from '@pty-ws/ports';
import type { MetricsExposition } from '@pty-ws/telemetry';
import type { AdminOperations } from '../admin/admin-operations';
import type { EdgeAudit } from '../audit/edge-audit';
import type { Authenticator } from '../auth';
import type { RequestGate } from '../limits/request-gate';
import type { TransportPolicy } from '../transport';
import type { TemplatedApp } from '../uws';
import { responder, sendError, sendJson, sendText } from './respond';
import { restRoute } from './rest/route';
import { mountSessionRoutes } from './rest/session-routes';
import { mountTokenRoutes } from './rest/token-routes';

export interface RestDeps {
  config: Config;
  /** Sessions and tokens: the checks, stores and audit trail gRPC AdminService shares. */
  admin: AdminOperations;
  /** The sessions' owners: the screen endpoint asks them for their mirror's text. */
  control: Pick<SessionControl, 'screen'>;
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
  /** Per-principal and per-instance request limits shared with A2A and gRPC (429 past them). */
  admit?: RequestGate;
  /** Transcript reads are recorded here; absent: not audited. */
  audit?: EdgeAudit;
}

/**
 * The admin REST API (sessions: rest/session-routes.ts, tokens: rest/token-routes.ts, each route
 * through rest/route.ts) and the health and metrics endpoints (AgentCards: card-routes.ts).
 */
export function mountRestApi(app: TemplatedApp, deps: RestDeps): void {
  const { config } = deps;
  // Behind TLS the URLs handed out (attach_url, AgentCard) must be the secure ones clients can use.
  const tls = config.tlsCert !== undefined && config.tlsKey !== undefined;
  const origin = (host: string) =>
    tls ? { http: `https://${host}`, ws: `wss://${host}` } : { http: `http://${host}`, ws: `ws://${host}` };
  const route = restRoute(app, deps);

  mountSessionRoutes(route, {
    admin: deps.admin,
    control: deps.control,
    log: deps.log,
    origin,
    hotMisses: deps.hotMisses,
    ...(deps.transcripts ? { transcripts: deps.transcripts } : {}),
    ...(deps.membership ? { membership: deps.membership } : {}),
    ...(deps.audit ? { audit: deps.audit } : {}),
  });
  mountTokenRoutes(route, deps.admin);

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
