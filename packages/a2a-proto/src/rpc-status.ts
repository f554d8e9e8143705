import * as protobuf from 'protobufjs';

/**
 * `google.rpc.Status` with `google.rpc.ErrorInfo` details, wire-encoded for the
 * `grpc-status-details-bin` trailer (A2A §10.6: A2A errors MUST carry an ErrorInfo in
 * `status.details`). The three messages are declared here (their field numbers are those of
 * googleapis' status.proto, error_details.proto and protobuf's any.proto) rather than vendoring
 * more protos for one trailer.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
    Status: {
      fields: {
        code: { type: 'int32', id: 1 },
        message: { type: 'string', id: 2 },
        details: { rule: 'repeated', type: 'Any', id: 3 },
      },
    },
    ErrorInfo: {
      fields: {
        reason: { type: 'string', id: 1 },
        domain: { type: 'string', id: 2 },
        metadata: { keyType: 'string', type: 'string', id: 3 } as protobuf.IMapField,
      },
    },
  },
});
const Status = root.lookupType('Status');
const ErrorInfo = root.lookupType('ErrorInfo');

export interface ErrorInfoJson {
  '@type': string;
  reason: string;
  domain: string;
  metadata: Record<string, string>;
}

export function encodeRpcStatus(code: number, message: string, info: ErrorInfoJson): Buffer {
  const value = ErrorInfo.encode(
    ErrorInfo.fromObject({ reason: info.reason, domain: info.domain, metadata: info.metadata }),
  ).finish();
  const status = Status.fromObject({ code, message, details: [{ type_url: info['@type'], value }] });
  return Buffer.from(Status.encode(status).finish());
}

/** The inverse, for tests and diagnostics: the Status and its ErrorInfo details as JSON. */
export function decodeRpcStatus(bytes: Uint8Array): { code: number; message: string; details: ErrorInfoJson[] } {
  const s = Status.toObject(Status.decode(bytes), { defaults: true }) as {
    code: number;
    message: string;
    details: { type_url: string; value: Uint8Array }[];
  };
  const details = s.details.map((d) => ({
    '@type': d.type_url,
    ...(ErrorInfo.toObject(ErrorInfo.decode(d.value), { defaults: true }) as Omit<ErrorInfoJson, '@type'>),
  }));
  return { code: s.code, message: s.message, details };
}
