import * as grpc from '@grpc/grpc-js';
import type { ProtoGrpcType as A2aGrpcType } from './generated/a2a';
import type { ProtoGrpcType as AdminGrpcType } from './generated/admin';
import { loadPackageDefinition } from './loader';

/** Both services, typed by the generated code: `.lf.a2a.v1.A2AService`, `.ptyws.admin.v1.AdminService`. */
export type GrpcPackage = A2aGrpcType & AdminGrpcType;

let loaded: GrpcPackage | undefined;

/** The loaded gRPC package (service constructors for clients, `.service` definitions for servers). */
export function grpcPackage(): GrpcPackage {
  loaded ??= grpc.loadPackageDefinition(loadPackageDefinition()) as unknown as GrpcPackage;
  return loaded;
}
