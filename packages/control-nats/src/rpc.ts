import { BindingError, isBindingError, type BindingErrorCode } from '@pty-ws/protocol';

/** The SessionControl methods that travel as request/reply. */
export type ControlMethod =
  | 'createSession'
  | 'killSession'
  | 'join'
  | 'leave'
  | 'setRole'
  | 'releaseEdge'
  | 'resize'
  | 'keyframe'
  | 'sendMessage'
  | 'createTask'
  | 'runTask'
  | 'getTask'
  | 'listTasks'
  | 'cancelTask';

export interface RpcRequest {
  method: ControlMethod;
  args: unknown[];
}

interface RpcErrorBody {
  /** A binding code, or a PTY-level code for failures reported as pty.session_frame Errors. */
  code: string;
  message: string;
  kind: 'binding' | 'pty' | 'internal';
  data?: Record<string, unknown>;
}

export type RpcReply = { ok: true; result: unknown } | { ok: false; error: RpcErrorBody };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value === undefined ? null : value));
}

export function decodeJson<T>(data: Uint8Array): T {
  return JSON.parse(decoder.decode(data)) as T;
}

/** Turns anything an owner throws into a reply an edge can rethrow faithfully. */
export function errorReply(err: unknown): RpcReply {
  if (isBindingError(err)) {
    return {
      ok: false,
      error: { kind: 'binding', code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) },
    };
  }
  if (err instanceof Error && err.name === 'PtyFailure') {
    return { ok: false, error: { kind: 'pty', code: (err as Error & { code: string }).code, message: err.message } };
  }
  return {
    ok: false,
    error: { kind: 'internal', code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) },
  };
}

/** The inverse of errorReply, on the edge side. */
export function rethrow(error: RpcErrorBody): never {
  if (error.kind === 'binding') throw new BindingError(error.code as BindingErrorCode, error.message, error.data);
  if (error.kind === 'pty') {
    const e = new Error(error.message) as Error & { code: string };
    e.name = 'PtyFailure';
    e.code = error.code;
    throw e;
  }
  throw new BindingError('INTERNAL', `session owner failed: ${error.message}`);
}

/** NATS answered a request with "no responders": nobody is subscribed, so nobody got it. */
export function isNoResponders(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  // nats.js v3: RequestError { cause: NoRespondersError (named 'NoResponders') }.
  const check = (err as Error & { isNoResponders?: () => boolean }).isNoResponders;
  if (typeof check === 'function') return check.call(err);
  return err.name.startsWith('NoResponders');
}
