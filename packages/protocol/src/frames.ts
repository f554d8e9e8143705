import type { ErrorPayload } from './errors';
import { errorPayload, type BindingErrorCode } from './errors';
import type { Envelope, ServiceParameters } from './envelope';
import { newId, rfc3339 } from './ids';

/** Builds a server→client envelope. Server frames always carry `sequence` (docs/spec/README.md interpretation 1). */
export function serverFrame<P>(
  op: string,
  payload: P,
  sequence: number,
  opts: { id?: string; ts?: string; serviceParameters?: ServiceParameters } = {},
): Envelope<P> {
  const frame: Envelope<P> = { op, id: opts.id ?? newId(), ts: opts.ts ?? rfc3339(), sequence, payload };
  if (opts.serviceParameters) frame.service_parameters = opts.serviceParameters;
  return frame;
}

export function errorFrame(
  code: BindingErrorCode,
  message: string,
  sequence: number,
  requestId?: string,
  data?: Record<string, unknown>,
): Envelope<ErrorPayload> {
  return serverFrame('Error', errorPayload(code, message, data), sequence, requestId ? { id: requestId } : {});
}

/** Builds a client→client envelope with a fresh id and timestamp. */
export function clientFrame<P>(
  op: string,
  payload: P,
  extra: Partial<Pick<Envelope<P>, 'replay_from' | 'service_parameters' | 'extensions' | 'id'>> = {},
): Envelope<P> {
  return { op, id: extra.id ?? newId(), ts: rfc3339(), payload, ...stripUndefined(extra) };
}

function stripUndefined<T extends object>(obj: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
