import type { A2aOperations } from '@pty-ws/a2a';
import type { Config } from '@pty-ws/config';
import type { FrameLog, SessionControl, SessionRegistry, TokenStore } from '@pty-ws/ports';
import type { EdgeAudit } from '../audit/edge-audit';
import type { Authenticator } from '../auth';
import type { Logger } from '../logger';
import { startGrpcServer, type RunningGrpcServer } from './grpc-server';

/** What the edge hands its gRPC server: the same stores, auth and A2A core as REST and WebSocket. */
export interface EdgeGrpcDeps {
  config: Config;
  logger: Logger;
  auth: Authenticator;
  control: SessionControl;
  registry: SessionRegistry;
  tokens: TokenStore;
  log: FrameLog;
  a2a?: A2aOperations;
  audit?: EdgeAudit;
  httpPort: number;
  hotMisses: (sessionId: string) => number;
  onTokenRevoked: (tokenId: string) => void;
  onAuthFailure?: (reason: string) => void;
}

/** Starts the gRPC server unless PTYWS_GRPC_PORT is 0. */
export async function startEdgeGrpc(deps: EdgeGrpcDeps): Promise<RunningGrpcServer | undefined> {
  const { config } = deps;
  if (config.grpcPort === 0) return undefined;
  const callAuth = {
    auth: deps.auth,
    instanceId: config.instanceId,
    logger: deps.logger,
    ...(deps.onAuthFailure ? { onAuthFailure: deps.onAuthFailure } : {}),
  };
  const audit = deps.audit;
  return startGrpcServer({
    config,
    logger: deps.logger,
    admin: {
      ...callAuth,
      control: deps.control,
      registry: deps.registry,
      tokens: deps.tokens,
      log: deps.log,
      httpPort: () => deps.httpPort,
      tls: config.tlsCert !== undefined && config.tlsKey !== undefined,
      hotMisses: deps.hotMisses,
      onTokenRevoked: deps.onTokenRevoked,
      ...(audit
        ? { onAdminAction: (p, action, detail, sessionId) => audit.admin(p, action as never, detail, sessionId) }
        : {}),
    },
    ...(deps.a2a ? { a2a: { ...callAuth, ops: deps.a2a } } : {}),
  });
}
