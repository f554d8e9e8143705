/**
 * A small k6 stand-in for tests: runs a k6 script (loadtest/k6/*.ts) unchanged, as one VU for a
 * few iterations, against a real server. esbuild bundles the script with its imports (k6 modules
 * left out); vu-runtime.ts runs it in a worker thread with k6's blocking `k6/http`, `k6/ws` and
 * `sleep`, while this thread does the I/O (node:http, `ws`). Returns every metric sample the script
 * added. Not k6: one VU, no executors, no thresholds; enough to see a script's checks work.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { buildSync, transformSync } from 'esbuild';
import WebSocket from 'ws';

export interface K6Sample {
  metric: string;
  type: string;
  value: number;
  tags: Record<string, string>;
}

type Request =
  | { kind: 'http'; method: string; url: string; body: string | null; headers: Record<string, string> }
  | { kind: 'connect'; id: number; url: string; headers: Record<string, string> }
  | { kind: 'send'; id: number; text: string }
  | { kind: 'sendBinary'; id: number; data: ArrayBuffer }
  | { kind: 'close'; id: number }
  | { kind: 'done'; samples: K6Sample[]; error?: string };

/** The script (or `source` in its place, e.g. a variant with a line changed) with its imports. */
/** One HTTP request on its own connection (`Connection: close`: nothing kept alive after a test). */
function httpRequest(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | null,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const length = body === null ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const req = request(
      url,
      { method, headers: { ...headers, ...length, Connection: 'close' }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, body: String(e) }));
    req.end(body ?? undefined);
  });
}

function bundle(script: string, source?: string): string {
  const out = buildSync({
    ...(source === undefined
      ? { entryPoints: [script] }
      : { stdin: { contents: source, resolveDir: dirname(script), sourcefile: script, loader: 'ts' as const } }),
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2020',
    external: ['k6', 'k6/*'],
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

export async function runK6Script(opts: {
  script: string;
  source?: string;
  env: Record<string, string>;
  iterations: number;
}): Promise<{ samples: K6Sample[]; error?: string }> {
  const runtime = transformSync(readFileSync(join(__dirname, 'vu-runtime.ts'), 'utf8'), {
    loader: 'ts',
    format: 'cjs',
  }).code;
  const signal = new SharedArrayBuffer(4);
  const notify = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const reply = (m: object, transfer: ArrayBuffer[] = []): void => {
    port1.postMessage(m, transfer);
    Atomics.add(notify, 0, 1);
    Atomics.notify(notify, 0);
  };
  const worker = new Worker(runtime, {
    eval: true,
    workerData: {
      bundle: bundle(opts.script, opts.source),
      env: opts.env,
      iterations: opts.iterations,
      signal,
      port: port2,
    },
    transferList: [port2],
  });
  const sockets = new Map<number, WebSocket>();
  try {
    return await new Promise((resolve, reject) => {
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`k6 shim worker exited ${code}`)));
      worker.on('message', (m: Request) => {
        if (m.kind === 'done') return resolve({ samples: m.samples, ...(m.error ? { error: m.error } : {}) });
        if (m.kind === 'http') {
          void httpRequest(m.method, m.url, m.headers, m.body).then((r) => reply({ kind: 'http', ...r }));
        } else if (m.kind === 'connect') {
          // k6/ws takes the subprotocol as a header; `ws` wants it as the protocols argument.
          const { 'Sec-WebSocket-Protocol': protocol, ...headers } = m.headers;
          const ws = new WebSocket(m.url, protocol ? [protocol] : [], { headers, perMessageDeflate: false });
          sockets.set(m.id, ws);
          let status = 0;
          ws.on('unexpected-response', (req, res) => {
            status = res.statusCode ?? 0;
            req.destroy();
            reply({ kind: 'close', id: m.id, status });
          });
          ws.on('open', () => reply({ kind: 'open', id: m.id }));
          ws.on('message', (data: Buffer, isBinary: boolean) => {
            if (!isBinary) return reply({ kind: 'message', id: m.id, text: data.toString('utf8') });
            const copy = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
            reply({ kind: 'binaryMessage', id: m.id, data: copy }, [copy]);
          });
          ws.on('error', () => undefined);
          ws.on('close', () => status === 0 && reply({ kind: 'close', id: m.id }));
        } else if (m.kind === 'send') sockets.get(m.id)?.send(m.text);
        else if (m.kind === 'sendBinary') sockets.get(m.id)?.send(Buffer.from(m.data));
        else sockets.get(m.id)?.close(1000);
      });
    });
  } finally {
    for (const ws of sockets.values()) ws.terminate();
    port1.close();
    await worker.terminate();
  }
}
