import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/**
 * The W3C trace id a client put in `service_parameters.trace_id` (binding §9): 32 hex digits,
 * not all zero. Upper-case digits are accepted and lower-cased (W3C writes them lower-case).
 */
export function traceIdOf(serviceParameters: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const raw = serviceParameters?.['trace_id'];
  if (typeof raw !== 'string' || !/^[0-9a-fA-F]{32}$/.test(raw)) return undefined;
  const id = raw.toLowerCase();
  return /^0+$/.test(id) ? undefined : id;
}

/** The `trace_id` to put on log lines: the service parameter as the client sent it, when it is a string. */
export function logTraceId(serviceParameters: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const raw = serviceParameters?.['trace_id'];
  return typeof raw === 'string' && raw.length > 0 && raw.length <= 128 ? raw : undefined;
}

/**
 * The trace id the next root span must take. The SDK's id generator (tracing-sdk.ts) reads it
 * synchronously inside `tracer.startSpan`, which is how a span becomes the root of a trace whose
 * id the client chose, without inventing a parent span id that exists nowhere.
 */
let pendingTraceId: string | undefined;

export function takePendingTraceId(): string | undefined {
  return pendingTraceId;
}

export interface RequestSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** A client-chosen trace id (see traceIdOf): the span joins that trace. */
  traceId?: string;
  /** Parent when no trace id is given, or when it already is in that trace; default the active context. */
  parent?: Context;
}

/**
 * Starts a span for one request. With a trace id, the span's parent is `parent` when that is in
 * the same trace, otherwise the span is the root of that trace. Without the SDK (tracing off)
 * this returns a non-recording span and costs next to nothing.
 */
export function startRequestSpan(tracer: Tracer, name: string, opts: RequestSpanOptions = {}): Span {
  const parent = opts.parent ?? context.active();
  const base = { kind: opts.kind ?? SpanKind.INTERNAL, ...(opts.attributes ? { attributes: opts.attributes } : {}) };
  if (opts.traceId === undefined || trace.getSpanContext(parent)?.traceId === opts.traceId) {
    return tracer.startSpan(name, base, parent);
  }
  pendingTraceId = opts.traceId;
  try {
    return tracer.startSpan(name, { ...base, root: true }, ROOT_CONTEXT);
  } finally {
    pendingTraceId = undefined;
  }
}

/** Runs `fn` with `span` active and ends the span when the promise settles (error status on rejection). */
export async function inSpan<T>(span: Span, fn: () => Promise<T>, parent: Context = context.active()): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/** Marks a span failed with the error's message and, for binding errors, its code. */
export function failSpan(span: Span, err: unknown): void {
  const e = err as { message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (typeof e?.code === 'string') span.setAttribute('ptyws.error_code', e.code);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

export { SpanKind, type Context, type Span, type Tracer };

/** A tracer of the process's global provider (the service's own service.name). */
export function globalTracer(name: string): Tracer {
  return trace.getTracer(name);
}

/** The context an incoming W3C `traceparent` (+ `tracestate`) header describes; the active one if absent. */
export function contextFromHeaders(traceparent: string, tracestate: string): Context {
  if (!traceparent) return context.active();
  const carrier: Record<string, string> = { traceparent, ...(tracestate ? { tracestate } : {}) };
  return propagation.extract(ROOT_CONTEXT, carrier);
}
