/**
 * A minimal OTLP/HTTP JSON trace receiver for tests: accepts POST /v1/traces
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) and keeps every span with its service.name.
 */
import { createServer, request, type Server } from 'node:http';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: OtlpAttribute[];
}
interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

/** OTLP/JSON ids are hex; accept base64 too (the protobuf-JSON mapping). */
function hexId(id: string | undefined): string {
  if (!id) return '';
  if (/^[0-9a-fA-F]+$/.test(id) && (id.length === 32 || id.length === 16)) return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex');
}

function attrs(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of list ?? [])
    out[a.key] = a.value.stringValue ?? a.value.intValue ?? a.value.boolValue ?? a.value.doubleValue;
  return out;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests that were not OTLP JSON (a wrong protocol would land here). */
  readonly rejected: string[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !/json/.test(req.headers['content-type'] ?? '')) {
          receiver?.rejected.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
          res.writeHead(400).end();
          return;
        }
        receiver?.ingest(JSON.parse(body) as OtlpRequest);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  private ingest(body: OtlpRequest): void {
    for (const rs of body.resourceSpans ?? []) {
      const service = String(attrs(rs.resource?.attributes)['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            service,
            name: s.name,
            kind: s.kind,
            traceId: hexId(s.traceId),
            spanId: hexId(s.spanId),
            parentSpanId: hexId(s.parentSpanId),
            attributes: attrs(s.attributes),
          });
        }
      }
    }
  }

  inTrace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  /** Waits until `pred` holds over the received spans (polling; the exporters batch). */
  async waitFor(pred: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!pred(this.spans)) {
      if (Date.now() > until) throw new Error(`spans not received in time; got:\n${this.describe()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  describe(): string {
    return this.spans
      .map((s) => `${s.service} ${s.name} trace=${s.traceId} span=${s.spanId} parent=${s.parentSpanId || '-'}`)
      .join('\n');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The OTEL_* variables that point a process's traces at this receiver. */
export function otlpEnv(receiver: OtlpReceiver): Record<string, string> {
  return {
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
}

/**
 * An exporter that posts OTLP/HTTP JSON with the SDK's own JSON serializer over a static
 * node:http import. In-process tests need it: the SDK's HTTP transport loads node:http with a
 * dynamic import(), which jest's CommonJS sandbox refuses (processes started by tests use the
 * real exporter, chosen by OTEL_EXPORTER_OTLP_PROTOCOL).
 */
export function jsonPostExporter(receiver: OtlpReceiver): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void {
      const body = JsonTraceSerializer.serializeRequest(spans);
      if (!body) return done({ code: 1, error: new Error('serialization failed') });
      const req = request(`${receiver.url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        done({ code: res.statusCode === 200 ? 0 : 1 });
      });
      req.on('error', (error) => done({ code: 1, error }));
      req.end(Buffer.from(body));
    },
    shutdown: async () => undefined,
  };
}
