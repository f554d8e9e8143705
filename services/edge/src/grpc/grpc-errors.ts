import * as grpc from '@grpc/grpc-js';
import { A2aError } from '@pty-ws/a2a';
import { ProtoJsonError, encodeRpcStatus } from '@pty-ws/a2a-proto';
import { isBindingError } from '@pty-ws/protocol';
// Admin errors that are not A2A errors: the REST API's 404 for unknown sessions and tokens.
import { NotFoundError } from '../admin/admin-operations';

/**
 * Trailing metadata key carrying the canonical A2A error object (`{type, code, message, data}`,
 * the `a2a_error` of the WebSocket binding) as UTF-8 JSON, so gRPC callers see the same error
 * names. A `-bin` key: messages may hold any character, ASCII metadata may not.
 */
export const A2A_ERROR_METADATA = 'a2a-error-bin';

/**
 * Any failure of a call as a gRPC status: A2A errors by their spec table (NOT_FOUND,
 * FAILED_PRECONDITION, UNAUTHENTICATED, PERMISSION_DENIED, INVALID_ARGUMENT, UNIMPLEMENTED…),
 * input that does not fit the proto as INVALID_ARGUMENT, anything else INTERNAL (message hidden).
 */
export function toServiceError(err: unknown, report?: (err: unknown) => void): Partial<grpc.ServiceError> {
  if (err instanceof NotFoundError) return { code: grpc.status.NOT_FOUND, details: err.message };
  const a2a =
    err instanceof ProtoJsonError
      ? new A2aError('InvalidParams', err.message, { field: err.path })
      : isBindingError(err) || err instanceof A2aError
        ? A2aError.from(err)
        : A2aError.from(undefined);
  if (a2a.type === 'Internal') report?.(err);
  const metadata = new grpc.Metadata();
  metadata.set(A2A_ERROR_METADATA, Buffer.from(JSON.stringify(a2a.toA2AError()), 'utf8'));
  // A2A §10.6: google.rpc.Status with the ErrorInfo the HTTP bindings send in details / data.
  metadata.set('grpc-status-details-bin', encodeRpcStatus(a2a.grpcStatus, a2a.message, a2a.errorInfo()));
  return { code: a2a.grpcStatus, details: a2a.message, metadata };
}
