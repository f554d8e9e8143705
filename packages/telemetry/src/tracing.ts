import { trace, type Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace';

/** service.name of the edge's spans (and of single-node mode's edge half). */
export const EDGE_SERVICE = 'pty-ws-edge';
/** service.name of the agent's spans (and of single-node mode's agent half). */
export const AGENT_SERVICE = 'pty-ws-agent';

/** One process's OpenTelemetry traces; a no-op unless the OTEL_* variables ask for an exporter. */
export interface Tracing {
  readonly enabled: boolean;
  /**
   * A tracer whose spans carry `service.name` = `service`. The process's own service is the
   * global provider (library code using `trace.getTracer` reports under it); single-node mode asks
   * for a second one so the agent half shows up as its own service.
   */
  tracer(service: string): Tracer;
  /** Exports what is buffered, then stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** This process's service.name (unless OTEL_SERVICE_NAME is set). */
  serviceName: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Replaces the exporter the OTEL_* variables choose (still batched per OTEL_BSP_*). For hosts
   * whose sandbox cannot run the OTLP HTTP transport: it loads node:http with a dynamic import(),
   * which jest's CommonJS sandbox refuses. Tracing must still be requested by the variables.
   */
  exporter?: SpanExporter;
}

/**
 * Tracing is off by default. It turns on when an exporter is asked for: OTEL_TRACES_EXPORTER set
 * to something other than `none`, or an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). OTEL_SDK_DISABLED=true keeps it off regardless.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase() === 'true') return false;
  const exporters = (env['OTEL_TRACES_EXPORTER'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (exporters.length > 0) return !exporters.every((s) => s === 'none');
  return Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim());
}

const disabled: Tracing = {
  enabled: false,
  tracer: (service) => trace.getTracer(service),
  shutdown: async () => undefined,
};

let started: Tracing | undefined;

/**
 * Starts the OpenTelemetry Node SDK when tracingRequested(); once per process (a second call
 * returns the first one's handle). The SDK is loaded only then, so a process with tracing off
 * never loads it.
 */
export function startTracing(opts: TracingOptions): Tracing {
  if (started) return started;
  const env = opts.env ?? process.env;
  if (!tracingRequested(env)) return disabled;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  const handle = sdk.startSdk(opts.serviceName, env, opts.exporter);
  started = {
    enabled: true,
    tracer: (service) => handle.tracer(service),
    shutdown: async () => {
      started = undefined;
      await handle.shutdown();
    },
  };
  return started;
}
