import type { Config } from '@pty-ws/config';
import { CloseCode } from '@pty-ws/protocol';
import { NO_AUDIT } from '@pty-ws/ports';
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
import { OpenStreams, allOpen } from './limits/open-streams';
import { requestGate } from './limits/request-gate';
import { MtlsFront } from './mtls/mtls-front';
import { TransportPolicy, createApp } from './transport';
import { uWS, type us_listen_socket } from './uws';
import { AttachHandler, type SessionHostSource } from './ws/attach-handler';
import type { Conn } from './ws/connection';
import { HubRegistry } from './ws/hubs';
import { upgradeHandler } from './ws/upgrade';

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

/** Starts an edge: REST + AgentCard + the pty-ws/v1 attach endpoint on one uWS listener. */
export async function startEdge(deps: EdgeDeps): Promise<RunningEdge> {
  const { config, logger } = deps;
  const app = createApp(config, logger);
  // mTLS (PTYWS_TLS_CA): a TLS front verifies client certificates and relays to the app on loopback.
  const front =
    config.tlsCa !== undefined && config.tlsCert !== undefined && config.tlsKey !== undefined
      ? new MtlsFront({ certFile: config.tlsCert, keyFile: config.tlsKey, caFile: config.tlsCa, logger })
      : undefined;
  const transport = TransportPolicy.fromConfig(config, front);
  const hubs = new HubRegistry({
    app,
    log: deps.log,
    logger,
    slowConsumerBytes: config.slowConsumerBytes,
    metrics: deps.metrics,
    onLagged: (conn) =>
      logger.warn({ session_id: conn.sessionId, client_id: conn.clientId }, 'slow consumer skipped forward'),
  });
  const auth = new Authenticator(deps.tokens, config.authEnabled, config.mtlsScopes, undefined, (reason) =>
    deps.metrics?.authFailure(reason),
  );
  const audit = deps.audit ? new EdgeAudit(deps.audit, config.edgeId, config.instanceId, deps.metrics) : undefined;
  const handler: AttachHandler = new AttachHandler({
    control: deps.control,
    log: deps.log,
    hubs,
    logger,
    edgeId: config.edgeId,
    sessionHost: deps.sessionHost,
    metrics: deps.metrics,
    frameLimits: {
      frameRatePerConn: config.frameRatePerConn,
      inputBytesPerConn: config.inputBytesPerConn,
      abuseRefusals: config.abuseRefusals,
      abuseRefusalsPerS: config.abuseRefusalsPerS,
    },
    ...(audit ? { audit } : {}),
  });
  const admission = new ConnectionAdmission(config, () => handler.conns.size);
  // A2A streams (SSE, gRPC) hold connections too: the open-connection caps count them with attaches.
  const streams = new OpenStreams();
  const openConnections = () => allOpen(handler.conns, streams);
  // Cluster: connection counts and rates shared with the other edges (SharedLimits).
  const shared = deps.limitsExchange
    ? new SharedLimits(config.edgeId, deps.limitsExchange, openConnections, (p, i) => admission.chargeRemote(p, i))
    : undefined;
  admission.countConnections(openConnections, shared);
  // A2A and gRPC admin calls take from the same per-principal and per-instance buckets.
  const onRateLimited = (limit: RateLimit) => deps.metrics?.rateLimited(limit);
  const admit = requestGate(admission, onRateLimited);
  const a2a = deps.a2a ? limitedStreams(deps.a2a, admission, streams, onRateLimited) : undefined;
  const untrackConnections = deps.metrics?.trackConnections(() => handler.conns);
  let draining = false;

  // Closed frames end every connection of the session after they were delivered.
  const closeWatch = new Map<string, () => void>();
  const watchClosed = (sessionId: string) => {
    if (closeWatch.has(sessionId)) return;
    const unsub = deps.log.subscribe(sessionId, (e) => {
      if (e.type === 'event' && e.op === 'pty.session_frame' && e.payload['kind'] === 'Closed') {
        setImmediate(() => {
          for (const conn of [...handler.conns]) {
            if (conn.sessionId === sessionId) handler.goodbye(conn, 'session_closed', CloseCode.NORMAL);
          }
          closeWatch.get(sessionId)?.();
          closeWatch.delete(sessionId);
        });
      }
    });
    closeWatch.set(sessionId, unsub);
  };

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

  app.ws<Conn>('/agents/:instance/sessions/:session/attach', {
    maxPayloadLength: config.maxFrameBytes,
    maxBackpressure: Math.max(config.slowConsumerBytes * 4, 4 * 1024 * 1024),
    closeOnBackpressureLimit: 0,
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
    }),
    open: guarded('open', (ws) => {
      if (draining) {
        ws.end(CloseCode.NORMAL, 'server_shutdown');
        return;
      }
      const { sessionId } = ws.getUserData();
      setImmediate(() => watchClosed(sessionId)); // see AttachHandler.open: no NATS calls inside uWS callbacks
      void handler.open(ws);
    }),
    message: guarded('message', (ws, message, isBinary) => handler.message(ws.getUserData(), message, isBinary)),
    drain: (ws) => void handler.resumeLagged(ws.getUserData()),
    pong: (ws) => {
      const conn = ws.getUserData();
      conn.lastPongAt = Date.now();
      conn.pingOutstandingSince = undefined;
    },
    close: (ws, code) => handler.closed(ws.getUserData(), code),
  });

  const closeConnectionsOf = (tokenId: string) => {
    // Revocations by this edge and by others (cluster: NATS) both come here: no cached verdict survives.
    auth.forget(tokenId);
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
    transport,
    instanceId: config.instanceId,
    auth,
    audit: deps.audit ?? NO_AUDIT,
  });
  mountRestApi(app, {
    a2a: deps.a2a !== undefined,
    transport,
    config,
    admin,
    log: deps.log,
    ...(deps.transcripts ? { transcripts: deps.transcripts } : {}),
    ...(deps.membership ? { membership: deps.membership } : {}),
    auth,
    ready: () => !draining && (deps.ready?.() ?? true),
    hotMisses: (sessionId) => hubs.get(sessionId)?.hotMisses ?? 0,
    metrics: deps.metrics,
  });

  // Keepalive (binding §2.4): ping every interval; reap a socket whose ping has gone unanswered
  // for the pong timeout. The final check runs after setImmediate, i.e. after pending I/O was
  // read: after an event-loop stall the timer fires before the pongs that arrived meanwhile are
  // processed, and healthy sockets would otherwise be reaped with the dead.
  const reap = (conn: Conn) => {
    if (!conn.ws || !conn.open || conn.pingOutstandingSince === undefined) return;
    if (Date.now() - conn.pingOutstandingSince <= config.pongTimeoutMs) return;
    logger.warn({ session_id: conn.sessionId, client_id: conn.clientId, role: conn.role }, 'reaping stale connection');
    deps.metrics?.connectionReaped();
    const ws = conn.ws;
    handler.closed(conn, CloseCode.SERVER_ERROR);
    ws.close(); // half-open peers never answer a close handshake: drop the socket
  };
  const heartbeat = setInterval(() => {
    const now = Date.now();
    const suspects: Conn[] = [];
    for (const conn of handler.conns) {
      if (!conn.ws || !conn.open) continue;
      if (conn.pingOutstandingSince === undefined) conn.pingOutstandingSince = now;
      else if (now - conn.pingOutstandingSince > config.pongTimeoutMs) suspects.push(conn);
      conn.ws.ping();
    }
    if (suspects.length > 0) setImmediate(() => suspects.forEach(reap));
  }, config.pingIntervalMs);
  heartbeat.unref();

  // Behind the mTLS front the app takes loopback connections only, on a port of its own.
  const [appHost, appPort] = front ? ['127.0.0.1', 0] : [config.host, config.port];
  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(appHost, appPort, (s) => (s ? resolve(s) : reject(new Error(`cannot listen on ${appHost}:${appPort}`))));
  });
  let port = uWS.us_socket_local_port(listenSocket);
  if (front) {
    try {
      port = await front.listen(config.host, config.port, port);
    } catch (err) {
      uWS.us_listen_socket_close(listenSocket);
      throw new Error(`cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
    }
  }
  const grpc = await startEdgeGrpc({
    config,
    logger,
    auth,
    admin,
    admit,

    log: deps.log,
    ...(a2a ? { a2a } : {}),
    ...(audit ? { audit } : {}),
    httpPort: port,
    hotMisses: (sessionId) => hubs.get(sessionId)?.hotMisses ?? 0,
  }).catch(async (err: unknown) => {
    uWS.us_listen_socket_close(listenSocket);
    await front?.close();
    throw err;
  });

  return {
    port,
    ...(grpc ? { grpcPort: grpc.port } : {}),
    closeConnectionsOf,
    async stop() {
      draining = true;
      clearInterval(heartbeat);
      for (const conn of [...handler.conns]) handler.goodbye(conn, 'server_shutdown', CloseCode.NORMAL);
      for (const unsub of closeWatch.values()) unsub();
      uWS.us_listen_socket_close(listenSocket);
      await front?.close();
      await grpc?.stop(1000);
      for (const hub of hubs.all()) hub.dispose();
      untrackConnections?.();
      audit?.stop();
      shared?.stop();
    },
  };
}
