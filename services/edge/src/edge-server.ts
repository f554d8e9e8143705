import type { Config } from '@pty-ws/config';
import { CloseCode, compileClientFrameValidators } from '@pty-ws/protocol';
import { NO_AUDIT, systemClock } from '@pty-ws/ports';
import type {
  AuditLog,
  FrameLog,
  MembershipStore,
  SessionControl,
  SessionRegistry,
  TokenStore,
  TranscriptArchive,
} from '@pty-ws/ports';
import type { AuditMetrics, EdgeMetrics, MetricsExposition, RateLimit } from '@pty-ws/telemetry';
import type { A2aOperations } from '@pty-ws/a2a';
import { Authenticator } from './auth';
import { claimUpgradeRemainder, uWS } from './uws';
import { AdminOperations } from './admin/admin-operations';
import { auditedA2a } from './audit/audited-a2a';
import { EdgeAudit } from './audit/edge-audit';
import { startEdgeGrpc } from './grpc/edge-grpc';
import { mountAuditApi } from './http/audit-api';
import { mountA2aHttp } from './http/a2a/a2a-http';
import { mountRestApi } from './http/rest-api';
import { mountStatic } from './http/static';
import type { Logger } from './logger';
import { ConnectionAdmission, SharedLimits, type LimitsExchange } from './limits';
import { limitedStreams } from './limits/limited-streams';
import { socketsWithinBudget, uwsPayloadLimit } from './limits/fragment-budget';
import { StreamWatch } from './limits/stream-watch';
import { OpenStreams, allOpen } from './limits/open-streams';
import { requestGate } from './limits/request-gate';
import { AuthFailureThrottle } from './limits/auth-failure-throttle';
import { MtlsFront } from './mtls/mtls-front';
import { TransportPolicy, createApp } from './transport';
import { HostPolicy } from './http/host-policy';
import { listenEdge } from './listen';
import { AttachHandler, type SessionHostSource } from './ws/attach-handler';
import type { Conn, ConnSocketData } from './ws/connection';
import { HubRegistry } from './ws/hubs';
import { closeCutSession, goodbyeAtClose, type CutCloseDeps } from './ws/log-cut-close';
import { upgradeHandler } from './ws/upgrade';
import { ExpiryWatch } from './ws/expiry-watch';
import { Keepalive } from './ws/keepalive';
import { isProbeAnswer, probeAnswered } from './ws/output-flow';
import { mountAgentCards } from './http/card-routes';
import { guardApp } from './http/guarded-app';

export interface EdgeDeps {
  config: Config;
  control: SessionControl;
  log: FrameLog;
  registry: SessionRegistry;
  tokens: TokenStore;
  /** The archive of frames evicted from the log: transcript API and replay counters. */
  transcripts?: TranscriptArchive;
  /** The members each session's owner saved: `members` counts in the sessions API. */
  membership?: MembershipStore;
  logger: Logger;
  /** binding_hello.session_host: fixed (single node) or read per connection (cluster: live agents). */
  sessionHost: SessionHostSource;
  ready?: () => boolean;
  /** The dependency new attaches cannot do without that is down now (cluster: NATS); they get 503. */
  unavailable?: () => string | undefined;
  /** Told after this edge revoked a token, so other edges can close its connections too (cluster). */
  onTokenRevoked?: (tokenId: string) => void;
  /** Recorders plus GET /metrics; in single-node mode the registry also holds the agent's metrics. */
  metrics?: EdgeMetrics & AuditMetrics & MetricsExposition;
  /** The audit trail (attaches, roles, input attribution, tokens); absent: nothing is audited. */
  audit?: AuditLog;
  /** Cluster: how edges share connection counts and admissions; absent: limits are this edge's own. */
  limitsExchange?: LimitsExchange;
  /** The A2A core: served over HTTP+JSON, JSON-RPC and gRPC (PTYWS_GRPC_PORT) when given. */
  a2a?: A2aOperations;
}

export interface RunningEdge {
  port: number;
  /** The gRPC server's port (A2A + admin services); absent when PTYWS_GRPC_PORT=0. */
  grpcPort?: number;
  /** Closes this edge's connections of a token revoked elsewhere (binding_goodbye principal_revoked, 4401). */
  closeConnectionsOf(tokenId: string): void;
  stop(): Promise<void>;
}

/** Room below uWS's maxBackpressure for the frames published in the tick a socket is skipped. */
const BACKLOG_MARGIN_BYTES = 512 * 1024;

/** Starts an edge: REST + AgentCard + the pty-ws/v1 attach endpoint on one uWS listener. */
export async function startEdge(deps: EdgeDeps): Promise<RunningEdge> {
  const { config, logger } = deps;
  // Before listening: otherwise the first client's first frame waits for the schemas to compile.
  compileClientFrameValidators();
  const tls = config.tlsCert !== undefined && config.tlsKey !== undefined;
  const app = guardApp(createApp(config, logger), logger, {
    tls,
    maxPending: config.maxHttpRequests,
    hosts: new HostPolicy(config.allowedHosts, config.authEnabled),
  });
  // mTLS (PTYWS_TLS_CA): a TLS front verifies client certificates and relays to the app over a private unix socket.
  const front =
    config.tlsCa !== undefined && config.tlsCert !== undefined && config.tlsKey !== undefined
      ? new MtlsFront({ certFile: config.tlsCert, keyFile: config.tlsKey, caFile: config.tlsCa, logger })
      : undefined;
  const transport = TransportPolicy.fromConfig(config, front);
  // uWS drops frames to a socket past maxBackpressure: the hub skips it forward before that.
  const maxBackpressure = Math.max(config.slowConsumerBytes * 4, 4 * 1024 * 1024);
  // The hubs' time, and their pace probes' answers (pong below).
  const clock = systemClock;
  const hubs = new HubRegistry({
    log: deps.log,
    logger,
    clock,
    slowConsumerBytes: config.slowConsumerBytes,
    hardBacklogBytes: maxBackpressure - BACKLOG_MARGIN_BYTES,
    metrics: deps.metrics,
    onLagged: (conn) =>
      logger.warn({ session_id: conn.sessionId, client_id: conn.clientId }, 'slow consumer skipped forward'),
    onDrained: (conn) => void handler.resumeLagged(conn),
    // Output waits for most readers: the owner holds the PTY while most readers here are behind.
    onPace: (sessionId, behind) => deps.control.pace(sessionId, config.edgeId, behind).catch(() => false),
    // A Closed frame ends every connection of the session once it was delivered: the hub's one
    // subscription per session sees it, so no second subscription watches for it. One still
    // catching up (or replaying) gets its goodbye once it has been sent the Closed too.
    onEntry: (entry, sessionId) => {
      if (entry.type !== 'event' || entry.op !== 'pty.session_frame' || entry.payload['kind'] !== 'Closed') return;
      setImmediate(() => {
        const hub = hubs.get(sessionId);
        const owed = (conn: Conn): boolean => hub?.owesFrames(conn, entry.seq) === true;
        // `error`: the owner gave the session's log up; its readers are told why (log-cut-close.ts).
        if (entry.payload['reason'] === 'error') return closeCutSession(cutClose, sessionId, undefined, owed);
        for (const conn of [...handler.conns]) {
          if (conn.sessionId !== sessionId || owed(conn)) continue;
          goodbyeAtClose(cutClose, conn);
        }
      });
    },
    // The owner gave the log up, told beside it: the log may never bring this session's Closed.
    onCut: (cut, sessionId) => closeCutSession(cutClose, sessionId, cut),
    // Its Closed reached a reader that was catching up: an Error first when it has reason error.
    onClosedReached: (conn) => setImmediate(() => goodbyeAtClose(cutClose, conn)),
    // A catch-up or replay whose log read failed (no answer in time): an Error naming where to
    // resume, then the close; the client reconnects with replay_from instead of waiting for good.
    onReadFailed: (conn, err) => {
      const why = err instanceof Error ? err.message : String(err);
      logger.warn({ session_id: conn.sessionId, client_id: conn.clientId, err: why }, 'frame log read failed');
      const message = `the session frame log could not be read (${why}): reconnect with replay_from ${conn.lastSeq}`;
      handler.fail(conn, 'INTERNAL', message, undefined, CloseCode.SERVER_ERROR);
    },
  });
  const auth = new Authenticator({
    tokens: deps.tokens,
    enabled: config.authEnabled,
    certificateScopes: config.mtlsScopes,
    onFailure: (reason) => deps.metrics?.authFailure(reason),
    throttle: new AuthFailureThrottle(config.authFailureRatePerS, config.authFailureBurst),
  });
  const audit = deps.audit
    ? new EdgeAudit({ log: deps.audit, edgeId: config.edgeId, instanceId: config.instanceId, metrics: deps.metrics })
    : undefined;
  const cutClose: CutCloseDeps = {
    conns: () => handler.conns,
    goodbye: (conn, reason, code) => handler.goodbye(conn, reason, code),
    hub: (sessionId) => hubs.get(sessionId),
    logger,
    audit,
  };
  const handler: AttachHandler = new AttachHandler({
    control: deps.control,
    log: deps.log,
    registry: deps.registry,
    hubs,
    logger,
    edgeId: config.edgeId,
    sessionHost: deps.sessionHost,
    metrics: deps.metrics,
    maxFrameBytes: config.maxFrameBytes,
    closeStallMs: config.pongTimeoutMs,
    ...(deps.a2a ? { a2a: deps.a2a } : {}),
    frameLimits: {
      frameRatePerConn: config.frameRatePerConn,
      inputBytesPerConn: config.inputBytesPerConn,
      abuseRefusals: config.abuseRefusals,
      abuseRefusalsPerS: config.abuseRefusalsPerS,
    },
    ...(audit ? { audit } : {}),
  });
  // Unfinished inbound messages are bounded per socket by uWS's payload limit, per edge by admission.
  const maxSockets = socketsWithinBudget(config);
  if (maxSockets < config.maxSockets) {
    logger.info(
      { max_sockets: maxSockets, ws_buffer_budget: config.wsBufferBudget, max_frame_bytes: config.maxFrameBytes },
      'PTYWS_WS_BUFFER_BUDGET admits fewer WebSockets than PTYWS_MAX_SOCKETS (lower PTYWS_MAX_FRAME_BYTES to admit more)',
    );
  }
  const admission = new ConnectionAdmission({ ...config, maxSockets }, () => handler.conns.size);
  // A2A streams (SSE, gRPC) hold connections too: the open-connection caps count them with attaches.
  const streams = new OpenStreams();
  const openConnections = () => allOpen(handler.conns, streams);
  // Cluster: connection counts and rates shared with the other edges (SharedLimits).
  const shared = deps.limitsExchange
    ? new SharedLimits({
        edgeId: config.edgeId,
        exchange: deps.limitsExchange,
        local: openConnections,
        onRemoteAdmissions: (p, i, r) => admission.chargeRemote(p, i, r),
      })
    : undefined;
  admission.countConnections(openConnections, shared);
  // A2A and gRPC admin calls take from the same per-principal and per-instance buckets.
  const onRateLimited = (limit: RateLimit) => deps.metrics?.rateLimited(limit);
  const admit = requestGate(admission, onRateLimited);
  // SSE and gRPC streams end on their token's revocation or expiry, like WebSockets.
  const streamWatch = new StreamWatch();
  const a2a = deps.a2a ? limitedStreams(deps.a2a, admission, streams, onRateLimited, streamWatch) : undefined;
  const untrackConnections = deps.metrics?.trackConnections(() => handler.conns);
  let draining = false;
  // A token that expires while its socket is open ends the connection then, like a revocation.
  const expiry = new ExpiryWatch<Conn>((conn) =>
    handler.goodbye(conn, 'principal_revoked', CloseCode.UNAUTHENTICATED, 'the token expired'),
  );
  // A socket whose pings go unanswered is dropped (half-open peers never answer a close handshake).
  const keepalive = new Keepalive({
    conns: () => handler.conns,
    pingIntervalMs: config.pingIntervalMs,
    pongTimeoutMs: config.pongTimeoutMs,
    onStale: (conn) => {
      logger.warn(
        { session_id: conn.sessionId, client_id: conn.clientId, role: conn.role },
        'reaping stale connection',
      );
      deps.metrics?.connectionReaped();
      handler.end(conn, CloseCode.SERVER_ERROR);
    },
  });

  /** An exception escaping into uWS silently drops the socket: log it and keep the connection. */
  const guarded =
    <A extends unknown[]>(where: string, fn: (...args: A) => void) =>
    (...args: A): void => {
      try {
        fn(...args);
      } catch (err) {
        logger.error({ where, err: (err as Error)?.stack ?? String(err) }, 'websocket handler failed');
      }
    };

  app.ws<ConnSocketData>('/agents/:instance/sessions/:session/attach', {
    // Above PTYWS_MAX_FRAME_BYTES so that AttachHandler sees and refuses such messages with an
    // Error and close 1009; uWS itself drops a socket past this without a close frame (1006).
    maxPayloadLength: uwsPayloadLimit(config.maxFrameBytes),
    maxBackpressure,
    closeOnBackpressureLimit: 0,
    // No permessage-deflate: sendMessage's compress hint (uws.ts) must compress nothing.
    compression: uWS.DISABLED,
    idleTimeout: 0,
    sendPingsAutomatically: false,
    upgrade: upgradeHandler({
      registry: deps.registry,
      auth,
      logger,
      knownInstance: (id) => id === config.instanceId,
      onAuthFailure: (reason) => deps.metrics?.authFailure(reason),
      admission,
      onRateLimited: (limit) => deps.metrics?.rateLimited(limit),
      transport,
      ...(deps.unavailable ? { unavailable: deps.unavailable } : {}),
    }),
    open: guarded('open', (ws) => {
      claimUpgradeRemainder(); // before anything else allocates (uws.ts)
      if (draining) {
        ws.end(CloseCode.NORMAL, 'server_shutdown');
        return;
      }
      void handler.open(ws);
      expiry.watch(ws.getUserData().conn);
    }),
    message: guarded('message', (ws, message, isBinary) => handler.message(ws.getUserData().conn, message, isBinary)),
    drain: (ws) => {
      const conn = ws.getUserData().conn;
      conn.onDrain?.();
      void handler.resumeLagged(conn);
    },
    // A pace probe's answer says how far the reader has read (output-flow/pace-probe.ts); any other is keepalive's.
    pong: (ws, message) => {
      const conn = ws.getUserData().conn;
      if (isProbeAnswer(message)) probeAnswered(conn, clock.monotonic());
      else keepalive.pong(conn);
    },
    close: (ws, code) => {
      const conn = ws.getUserData().conn;
      conn.socketClosed = true;
      expiry.forget(conn);
      handler.closed(conn, code);
    },
  });

  const closeConnectionsOf = (tokenId: string) => {
    // Revocations by this edge and by others (cluster: NATS) both come here: no cached verdict survives.
    auth.forget(tokenId);
    streamWatch.revoke(tokenId);
    for (const conn of [...handler.conns]) {
      if (conn.principal.tokenId === tokenId) handler.goodbye(conn, 'principal_revoked', CloseCode.UNAUTHENTICATED);
    }
  };

  const admin = new AdminOperations({
    instanceId: config.instanceId,
    control: deps.control,
    registry: deps.registry,
    tokens: deps.tokens,
    ...(audit ? { audit } : {}),
    onRateLimited: (limit) => deps.metrics?.rateLimited(limit),
    onTokenRevoked: (tokenId) => {
      closeConnectionsOf(tokenId);
      deps.onTokenRevoked?.(tokenId);
    },
  });

  mountStatic(app);
  mountAgentCards(app, config, deps.a2a !== undefined);
  // A2A HTTP+JSON and JSON-RPC bindings over the same core as gRPC (before the REST catch-all 404).
  if (a2a) {
    mountA2aHttp(app, {
      ops: audit ? auditedA2a(a2a, audit, 'http') : a2a,
      admit,
      auth,
      instanceId: config.instanceId,
      logger,
      transport,
    });
  }
  // Without a trail (PTYWS_AUDIT_LOG=off) the endpoint says so instead of a bare 404.
  mountAuditApi(app, {
    admit,
    transport,
    instanceId: config.instanceId,
    auth,
    audit: deps.audit ?? NO_AUDIT,
  });
  mountRestApi(app, {
    admit,
    ...(audit ? { audit } : {}),
    transport,
    config,
    admin,
    control: deps.control,
    log: deps.log,
    ...(deps.transcripts ? { transcripts: deps.transcripts } : {}),
    ...(deps.membership ? { membership: deps.membership } : {}),
    auth,
    ready: () => !draining && (deps.ready?.() ?? true),
    hotMisses: (sessionId) => hubs.get(sessionId)?.hotMisses ?? 0,
    metrics: deps.metrics,
  });

  const listener = await listenEdge(app, config, front);
  const grpc = await startEdgeGrpc({
    config,
    logger,
    auth,
    admin,
    admit,
    log: deps.log,
    ...(a2a ? { a2a } : {}),
    ...(audit ? { audit } : {}),
    httpPort: listener.port,
    hotMisses: (sessionId) => hubs.get(sessionId)?.hotMisses ?? 0,
  }).catch(async (err: unknown) => {
    await listener.close();
    throw err;
  });

  return {
    port: listener.port,
    ...(grpc ? { grpcPort: grpc.port } : {}),
    closeConnectionsOf,
    async stop() {
      draining = true;
      keepalive.dispose();
      expiry.dispose();
      streamWatch.dispose();
      for (const conn of [...handler.conns]) handler.goodbye(conn, 'server_shutdown', CloseCode.NORMAL);
      await listener.close();
      await grpc?.stop(1000);
      for (const hub of hubs.all()) hub.dispose();
      untrackConnections?.();
      audit?.dispose();
      shared?.dispose();
    },
  };
}
