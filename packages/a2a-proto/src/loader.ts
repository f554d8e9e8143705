import * as path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import * as protobuf from 'protobufjs';

/** The repository's `proto/` directory (the same from `src/` under jest and from `dist/`). */
export const PROTO_DIR = path.resolve(__dirname, '../../../proto');

export const A2A_PROTO = 'lf/a2a/v1/a2a.proto';
export const ADMIN_PROTO = 'ptyws/admin/v1/admin.proto';

/** Fully qualified service names, as they appear in gRPC method paths. */
export const A2A_SERVICE = 'lf.a2a.v1.A2AService';
export const ADMIN_SERVICE = 'ptyws.admin.v1.AdminService';

/**
 * How the gRPC server and clients turn messages into objects. Must match the flags of
 * scripts/generate.cjs: the generated `__Output` types describe exactly these objects
 * (original snake_case names, enum names, int64 and bytes as strings, oneof discriminators).
 */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: String,
  defaults: false,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

/** Both services' definitions, for `grpc.loadPackageDefinition` (server and clients alike). */
export function loadPackageDefinition(): protoLoader.PackageDefinition {
  return protoLoader.loadSync([A2A_PROTO, ADMIN_PROTO], LOADER_OPTIONS);
}

let reflectionRoot: protobuf.Root | undefined;

/** protobufjs reflection over the same files (field types for the JSON mapping). Loaded once. */
export function protoRoot(): protobuf.Root {
  if (reflectionRoot) return reflectionRoot;
  const root = new protobuf.Root();
  // google/protobuf/* resolve to protobufjs' bundled copies; everything else to proto/.
  root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(PROTO_DIR, target));
  root.loadSync([A2A_PROTO, ADMIN_PROTO], { keepCase: true });
  root.resolveAll();
  reflectionRoot = root;
  return root;
}
