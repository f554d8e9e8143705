/**
 * The OpenTelemetry SDK set-up, loaded only when tracing is on (tracing.ts). Spans go through one
 * span processor and exporter chosen by the standard variables:
 *   OTEL_TRACES_EXPORTER          otlp (default) | console | none, comma-separated
 *   OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL   http/protobuf (default) | http/json | grpc
 *   OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT   read by the exporters themselves
 *   OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE, OTEL_BSP_EXPORT_TIMEOUT
 *   OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER(_ARG), OTEL_PROPAGATORS   via NodeSDK
 * The exporter is built here rather than by NodeSDK because single-node mode needs a second
 * tracer provider (the agent half, its own service.name) feeding the same processor.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { diag, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  RandomIdGenerator,
  SimpleSpanProcessor,
  TracerProvider,
  type IdGenerator,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { takePendingTraceId } from './trace-context';
import type { Tracing } from './tracing';

/** Random ids, except for a root span started in a client-chosen trace (startRequestSpan). */
class ClientTraceIdGenerator implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  generateTraceId(): string {
    return takePendingTraceId() ?? this.random.generateTraceId();
  }
  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

/**
 * The HTTP exporters' default agent factory loads node:http with a dynamic import(), which a
 * CommonJS vm sandbox (jest) refuses; a factory over static imports works everywhere.
 */
const httpAgentOptions = (protocol: string): HttpAgent =>
  protocol === 'http:' ? new HttpAgent({ keepAlive: true }) : new HttpsAgent({ keepAlive: true });

function otlpExporter(env: NodeJS.ProcessEnv): SpanExporter {
  const protocol = (env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'] ?? '').trim();
  switch (protocol) {
    case 'grpc':
      return new GrpcExporter();
    case 'http/json':
      return new JsonExporter({ httpAgentOptions });
    case '':
    case 'http/protobuf':
      return new ProtoExporter({ httpAgentOptions });
    default:
      diag.warn(`unsupported OTLP traces protocol '${protocol}': using http/protobuf`);
      return new ProtoExporter({ httpAgentOptions });
  }
}

function numberFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = Number(env[name]);
  return env[name] !== undefined && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function processorsFromEnv(env: NodeJS.ProcessEnv, exporter: SpanExporter | undefined): SpanProcessor[] {
  const names = (env['OTEL_TRACES_EXPORTER'] ?? 'otlp')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'none');
  const batch = {
    scheduledDelayMillis: numberFrom(env, 'OTEL_BSP_SCHEDULE_DELAY'),
    maxQueueSize: numberFrom(env, 'OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: numberFrom(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
    exportTimeoutMillis: numberFrom(env, 'OTEL_BSP_EXPORT_TIMEOUT'),
  };
  if (exporter) return [new BatchSpanProcessor({ exporter, ...batch })];
  const processors: SpanProcessor[] = [];
  for (const name of names.length > 0 ? names : ['otlp']) {
    if (name === 'console') processors.push(new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() }));
    else if (name === 'otlp') processors.push(new BatchSpanProcessor({ exporter: otlpExporter(env), ...batch }));
    else diag.warn(`unsupported OTEL_TRACES_EXPORTER '${name}' ignored`);
  }
  return processors;
}

export function startSdk(serviceName: string, env: NodeJS.ProcessEnv, exporter?: SpanExporter): Tracing {
  const processors = processorsFromEnv(env, exporter);
  const idGenerator = new ClientTraceIdGenerator();
  // OTEL_SERVICE_NAME, when set, names every provider of the process (the standard's rule).
  const nameFor = (service: string) => env['OTEL_SERVICE_NAME']?.trim() || service;
  const sdk = new NodeSDK({
    serviceName: nameFor(serviceName),
    spanProcessors: processors,
    idGenerator,
    // Traces only: metrics stay on prom-client's /metrics, logs on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  const baseResource = defaultResource().merge(
    detectResources({ detectors: [envDetector, processDetector, hostDetector] }),
  );
  const extra = new Map<string, TracerProvider>();
  return {
    enabled: true,
    tracer(service: string): Tracer {
      if (service === serviceName) return trace.getTracer(service);
      let provider = extra.get(service);
      if (!provider) {
        provider = new TracerProvider({
          resource: baseResource.merge(resourceFromAttributes({ 'service.name': nameFor(service) })),
          spanProcessors: processors,
          idGenerator,
        });
        extra.set(service, provider);
      }
      return provider.getTracer(service);
    },
    async shutdown() {
      await Promise.all([...extra.values()].map((p) => p.forceFlush()));
      await sdk.shutdown();
    },
  };
}
