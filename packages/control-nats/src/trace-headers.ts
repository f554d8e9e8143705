import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { headers, type MsgHdrs } from '@nats-io/transport-node';

/**
 * W3C trace context over NATS message headers (`traceparent`, `tracestate`, `baggage`): the edge
 * injects the active context into each control request, the agent extracts it, so the agent's
 * spans are children of the edge's. Only control requests carry it: PTY input stays header-light.
 */
const setter: TextMapSetter<MsgHdrs> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

const getter: TextMapGetter<MsgHdrs> = {
  keys: (carrier) => carrier.keys(),
  get: (carrier, key) => carrier.get(key) || undefined,
};

const tracer = () => trace.getTracer('@pty-ws/control-nats');

/** Edge side: a CLIENT span for one request and the headers that carry it. */
export function startRequestSpan(subject: string, method: string): { span: Span; ctx: Context; hdrs: MsgHdrs } {
  const span = tracer().startSpan(`ptyws.control ${method}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'messaging.system': 'nats',
      'messaging.operation.type': 'send',
      'messaging.destination.name': subject,
      'rpc.system': 'ptyws-control',
      'rpc.method': method,
    },
  });
  const ctx = trace.setSpan(context.active(), span);
  const hdrs = headers();
  propagation.inject(ctx, hdrs, setter);
  return { span, ctx, hdrs };
}

/** Agent side: the SERVER span of one request, child of the edge's span when the headers carry one. */
export function startHandlerSpan(
  subject: string,
  method: string,
  hdrs: MsgHdrs | undefined,
): { span: Span; ctx: Context } {
  const parent = hdrs ? propagation.extract(ROOT_CONTEXT, hdrs, getter) : ROOT_CONTEXT;
  const span = tracer().startSpan(
    `ptyws.control ${method}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'process',
        'messaging.destination.name': subject,
        'rpc.system': 'ptyws-control',
        'rpc.method': method,
      },
    },
    parent,
  );
  return { span, ctx: trace.setSpan(parent, span) };
}

/** Ends a span with the outcome of a reply. */
export function endSpan(span: Span, error?: { code: string; message: string }): void {
  if (error) {
    span.setAttribute('ptyws.error_code', error.code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  }
  span.end();
}
