import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Pool } from 'pg';

type QueryFn = (...args: unknown[]) => unknown;

/** `SELECT`, `INSERT`, … : the first word of the statement (the span name, low cardinality). */
function operationOf(text: string): string {
  const m = /^\s*([A-Za-z]+)/.exec(text);
  return m ? m[1]!.toUpperCase() : 'QUERY';
}

/**
 * Gives each `pool.query` made inside a traced request a CLIENT span (`SELECT sessions`-style
 * name, the statement text without its bind values as `db.query.text`). Queries outside any
 * recording span (the janitor's sweep, health checks) are not traced: they would each be a
 * one-span trace of their own. Manual rather than @opentelemetry/instrumentation-pg: that patches
 * `pg` when it is first required, which single-node tests and the services cannot order reliably.
 */
export function traceQueries(pool: Pool, schema: string): void {
  const original = pool.query.bind(pool) as QueryFn;
  const traced: QueryFn = (...args) => {
    const parent = context.active();
    const last = args[args.length - 1];
    if (!trace.getSpan(parent)?.isRecording() || typeof last === 'function') return original(...args);
    const first = args[0];
    const text = typeof first === 'string' ? first : String((first as { text?: unknown } | null)?.text ?? '');
    const operation = operationOf(text);
    const table = /\b(?:FROM|INTO|UPDATE)\s+"[a-z0-9_]+"\."([a-z0-9_]+)"/i.exec(text)?.[1];
    const span = trace.getTracer('@pty-ws/adapters-postgres').startSpan(
      table ? `${operation} ${table}` : operation,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': 'postgresql',
          'db.namespace': schema,
          'db.operation.name': operation,
          'db.query.text': text.replace(/\s+/g, ' ').trim().slice(0, 2048),
          ...(table ? { 'db.collection.name': table } : {}),
        },
      },
      parent,
    );
    const result = context.with(trace.setSpan(parent, span), () => original(...args)) as Promise<unknown>;
    return result.then(
      (r) => {
        span.end();
        return r;
      },
      (err: unknown) => {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        span.end();
        throw err;
      },
    );
  };
  pool.query = traced as unknown as Pool['query'];
}
