import type { A2aOperations } from '@pty-ws/a2a';
import type { Config } from '@pty-ws/config';
import type { FrameLog } from '@pty-ws/ports';
import type { AdminOperations } from '../admin/admin-operations';
import { auditedA2a } from '../audit/audited-a2a';
import type { EdgeAudit } from '../audit/edge-audit';
import type { Authenticator } from '../auth';
import type { RequestGate } from '../limits/request-gate';
import type { Logger } from '../logger';
import { allowsInsecure } from '../transport';
import { startGrpcServer, type RunningGrpcServer } from './grpc-server';

/** What the edge hands its gRPC server: the same stores, auth, limits and A2A core as REST and WebSocket. */
export interface EdgeGrpcDeps {
  config: Config;
  logger: Logger;
  auth: Authenticator;
  admin: AdminOperations;
  log: FrameLog;
  a2a?: A2aOperations;
  audit?: EdgeAudit;
  /** The per-principal and per-instance request limits of the HTTP control plane. */
  admit?: RequestGate;
  httpPort: number;
  hotMisses: (sessionId: string) => number;
}

/** Starts the gRPC server unless PTYWS_GRPC_PORT is 0. */
export async function startEdgeGrpc(deps: EdgeGrpcDeps): Promise<RunningGrpcServer | undefined> {
  const { config } = deps;
  if (config.grpcPort === 0) return undefined;
  const tls = config.tlsCert !== undefined && config.tlsKey !== undefined;
  // Plaintext gRPC carries bearer tokens in clear: the same rule as plain http/ws (PTYWS_ALLOW_INSECURE).
  const plaintextRefused = !tls && !allowsInsecure(config, config.grpcHost ?? config.host);
  if (plaintextRefused)
    deps.logger.warn(
      { grpc_port: config.grpcPort },
      'gRPC has no TLS (PTYWS_TLS_CERT/KEY) and plaintext is not allowed (PTYWS_ALLOW_INSECURE=0, or a non-loopback PTYWS_GRPC_HOST/PTYWS_HOST): every call is refused with PERMISSION_DENIED',
    );
  const callAuth = {
    ...(plaintextRefused ? { plaintextRefused } : {}),
    auth: deps.auth,
    instanceId: config.instanceId,
    logger: deps.logger,
    ...(deps.admit ? { admit: deps.admit } : {}),
  };
  const a2a = deps.a2a && deps.audit ? auditedA2a(deps.a2a, deps.audit, 'grpc') : deps.a2a;
  return startGrpcServer({
    config,
    logger: deps.logger,
    admin: {
      ...callAuth,
      admin: deps.admin,
      log: deps.log,
      httpPort: () => deps.httpPort,
      tls,
      hotMisses: deps.hotMisses,
    },
    ...(a2a ? { a2a: { ...callAuth, ops: a2a } } : {}),
  });
}
