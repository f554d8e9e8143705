import { BindingError, isBindingError, type BindingErrorCode } from '@pty-ws/protocol';
import {
  DependencyUnavailable,
  PtyFailure,
  isDependencyUnavailable,
  isPtyFailure,
  type PtyFailureCode,
  type SessionControl,
} from '@pty-ws/ports';

/**
 * The SessionControl methods that travel as request/reply: all but input (its own subject, in
 * order per client) and releaseEdge (agents release a dead edge's members from its heartbeats).
 */
export type ControlMethod = Exclude<keyof SessionControl, 'input' | 'releaseEdge'>;

/** A method's arguments on the wire: exactly its SessionControl parameters. */
export type ControlArgs = { [M in ControlMethod]: Parameters<SessionControl[M]> };

/** What a method resolves with. */
export type ControlResult<M extends ControlMethod> = Awaited<ReturnType<SessionControl[M]>>;

/** One control request: the method and its arguments, typed together. */
export type RpcRequest = { [M in ControlMethod]: { method: M; args: ControlArgs[M] } }[ControlMethod];

const CONTROL_METHODS: Readonly<Record<ControlMethod, true>> = {
  createSession: true,
  killSession: true,
  join: true,
  leave: true,
  setRole: true,
  resize: true,
  keyframe: true,
  screen: true,
  pace: true,
  sendMessage: true,
  createTask: true,
  runTask: true,
  getTask: true,
  listTasks: true,
  cancelTask: true,
};

/** A decoded request names a control method and carries an argument list (NATS is trusted). */
export function isRpcRequest(value: unknown): value is RpcRequest {
  if (value === null || typeof value !== 'object') return false;
  const { method, args } = value as { method?: unknown; args?: unknown };
  return typeof method === 'string' && Object.hasOwn(CONTROL_METHODS, method) && Array.isArray(args);
}

interface RpcErrorBody {
  /** A binding code, or a PTY-level code for failures reported as pty.session_frame Errors. */
  code: string;
  message: string;
  /** `unavailable`: the owner's store or log was unreachable (data: dependency, reason, retry_after_s). */
  kind: 'binding' | 'pty' | 'internal' | 'unavailable';
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
  if (isDependencyUnavailable(err)) {
    return { ok: false, error: { kind: 'unavailable', code: err.code, message: err.message, data: err.data ?? {} } };
  }
  if (isBindingError(err)) {
    return {
      ok: false,
      error: { kind: 'binding', code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) },
    };
  }
  if (isPtyFailure(err)) return { ok: false, error: { kind: 'pty', code: err.code, message: err.message } };
  return {
    ok: false,
    error: { kind: 'internal', code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) },
  };
}

/** The inverse of errorReply, on the edge side. */
export function rethrow(error: RpcErrorBody): never {
  if (error.kind === 'unavailable') {
    const { dependency, reason, retry_after_s: retryAfterS } = error.data ?? {};
    throw new DependencyUnavailable(
      String(dependency),
      String(reason),
      typeof retryAfterS === 'number' ? retryAfterS : 1,
    );
  }
  if (error.kind === 'binding') throw new BindingError(error.code as BindingErrorCode, error.message, error.data);
  if (error.kind === 'pty') throw new PtyFailure(error.code as PtyFailureCode, error.message);
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
