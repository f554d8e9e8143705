import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import type { Config } from '@pty-ws/config';
import { grpcPackage } from '@pty-ws/a2a-proto';
import type { Logger } from '../logger';
import { a2aServiceHandlers, type A2aServiceDeps } from './a2a-service';
import { adminServiceHandlers, type AdminServiceDeps } from './admin-service';

export interface GrpcServerDeps {
  config: Config;
  logger: Logger;
  admin: AdminServiceDeps;
  /** The A2A service is served when the edge has an A2A core. */
  a2a?: A2aServiceDeps;
}

export interface RunningGrpcServer {
  /** The port actually bound. */
  port: number;
  /** Refuses new calls, lets running ones finish for `graceMs`, then cancels the rest. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * TLS with the edge's certificate when PTYWS_TLS_CERT/KEY are set (the same files as https/wss);
 * with PTYWS_TLS_CA also mutual TLS, as on the HTTP port: a client certificate signed by that CA
 * is required and verified in the handshake (a client without one, or with another CA's, never
 * reaches a handler), and its identity is the principal of calls without a bearer token.
 */
function credentials(config: Config): grpc.ServerCredentials {
  if (config.tlsCert === undefined || config.tlsKey === undefined) return grpc.ServerCredentials.createInsecure();
  const keyPair = [{ cert_chain: readFileSync(config.tlsCert), private_key: readFileSync(config.tlsKey) }];
  if (config.tlsCa === undefined) return grpc.ServerCredentials.createSsl(null, keyPair);
  return grpc.ServerCredentials.createSsl(readFileSync(config.tlsCa), keyPair, true);
}

/**
 * The edge's gRPC server (PTYWS_GRPC_PORT): `lf.a2a.v1.A2AService` over the shared A2A core and
 * `ptyws.admin.v1.AdminService` over the same stores as the REST admin API.
 */
export async function startGrpcServer(deps: GrpcServerDeps): Promise<RunningGrpcServer> {
  const { config, logger } = deps;
  const pkg = grpcPackage();
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 4 * 1024 * 1024 });
  server.addService(pkg.ptyws.admin.v1.AdminService.service, adminServiceHandlers(deps.admin));
  if (deps.a2a) server.addService(pkg.lf.a2a.v1.A2AService.service, a2aServiceHandlers(deps.a2a));

  const host = config.grpcHost ?? config.host;
  const address = host.includes(':') ? `[${host}]:${config.grpcPort}` : `${host}:${config.grpcPort}`;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, credentials(config), (err, bound) =>
      err ? reject(new Error(`cannot listen for gRPC on ${address}: ${err.message}`)) : resolve(bound),
    ),
  );
  logger.info(
    { port, a2a: deps.a2a !== undefined, tls: config.tlsCert !== undefined, mtls: config.tlsCa !== undefined },
    'gRPC server listening',
  );

  let stopping: Promise<void> | undefined;
  return {
    port,
    stop: (graceMs = 2000) =>
      (stopping ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      })),
  };
}
