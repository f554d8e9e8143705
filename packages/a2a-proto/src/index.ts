/**
 * The canonical protos (`proto/`: A2A v1.0 `lf.a2a.v1`, `ptyws.admin.v1`) for TypeScript: the
 * generated types (src/generated, by scripts/generate.cjs), the loader both gRPC ends use, and
 * the proto3 JSON mapping that makes the pty-ws/v1 JSON the canonical encoding of those messages.
 */
export * from './loader';
export * from './proto-json';
export * from './a2a-json';
export * from './a2a-v1-json';
export * from './rpc-status';
export * from './grpc-package';
export type * as a2a from './generated/a2a-types';
export type * as admin from './generated/admin-types';
