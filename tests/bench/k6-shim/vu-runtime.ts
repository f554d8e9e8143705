/**
 * The k6 side of the shim (tests/bench/k6-shim/run-k6.ts), run in a worker thread: one VU that
 * runs a bundled k6 script's setup(), default function and teardown() with k6's blocking
 * semantics. `k6/http` requests, `k6/ws` sockets and `sleep` block this thread (Atomics.wait)
 * while the main thread does the I/O with fetch and `ws` and posts every event back, so the
 * script's own code runs unchanged, handlers and all.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';

interface Init {
  bundle: string;
  env: Record<string, string>;
  iterations: number;
  signal: SharedArrayBuffer;
  port: MessagePort;
}

/** What the main thread answers: an HTTP response, or an event of socket `id`. */
type Reply =
  | { kind: 'http'; status: number; body: string }
  | { kind: 'open' | 'close'; id: number; status?: number }
  | { kind: 'message'; id: number; text: string }
  | { kind: 'binaryMessage'; id: number; data: ArrayBuffer };

type Sample = { metric: string; type: string; value: number; tags: Record<string, string> };

const init = workerData as Init;
const signal = new Int32Array(init.signal);
const samples: Sample[] = [];
const post = (m: object): void => parentPort!.postMessage(m);

/** The next reply, waiting at most until `deadline` (performance.now()); undefined on timeout. */
function next(deadline: number): Reply | undefined {
  for (;;) {
    const seen = Atomics.load(signal, 0);
    const got = receiveMessageOnPort(init.port);
    if (got) return got.message as Reply;
    const left = deadline - performance.now();
    if (left <= 0) return undefined;
    Atomics.wait(signal, 0, seen, left);
  }
}

function sleep(seconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, seconds * 1000);
}

function request(method: string, url: string, body: string | null, params?: { headers?: object }): object {
  post({ kind: 'http', method, url, body, headers: params?.headers ?? {} });
  const r = next(Infinity) as Extract<Reply, { kind: 'http' }>;
  return { status: r.status, body: r.body, json: () => JSON.parse(r.body) as unknown };
}

let socketIds = 0;

/** k6/ws connect(): blocks until the socket closes, running its handlers and timers meanwhile. */
function connect(url: string, params: { headers?: Record<string, string> }, setup: (s: object) => void): object {
  const id = ++socketIds;
  const handlers = new Map<string, (arg?: unknown) => void>();
  const timers: { at: number; fn: () => void }[] = [];
  let closed = false;
  const socket = {
    on: (event: string, fn: (arg?: unknown) => void) => handlers.set(event, fn),
    send: (text: string) => !closed && post({ kind: 'send', id, text }),
    sendBinary: (data: ArrayBuffer) => !closed && post({ kind: 'sendBinary', id, data }),
    close: () => !closed && post({ kind: 'close', id }),
    setTimeout: (fn: () => void, ms: number) => timers.push({ at: performance.now() + ms, fn }),
  };
  post({ kind: 'connect', id, url, headers: params.headers ?? {} });
  setup(socket);
  let status = 0;
  while (!closed) {
    timers.sort((a, b) => a.at - b.at);
    const due = timers[0];
    const r = next(due ? due.at : Infinity);
    if (!r) {
      timers.shift();
      due!.fn();
      continue;
    }
    if (r.kind === 'http' || r.id !== id) continue;
    if (r.kind === 'open') status = 101;
    if (r.kind === 'close') {
      closed = true;
      status = status || (r.status ?? 0);
    }
    const handler = handlers.get(r.kind);
    if (r.kind === 'message') handler?.(r.text);
    else if (r.kind === 'binaryMessage') handler?.(r.data);
    else handler?.();
  }
  return { status };
}

function metric(type: string) {
  return class {
    constructor(readonly name: string) {}
    add(value: number | boolean, tags: Record<string, string> = {}): void {
      samples.push({ metric: this.name, type, value: Number(value), tags });
    }
  };
}

function check<T>(value: T, sets: Record<string, (v: T) => boolean>): boolean {
  let all = true;
  for (const [name, fn] of Object.entries(sets)) {
    const ok = fn(value);
    samples.push({ metric: 'checks', type: 'rate', value: Number(ok), tags: { check: name } });
    all &&= ok;
  }
  return all;
}

// __esModule: the bundle's `import x from 'k6/ws'` reads `default` of such a module.
const modules: Record<string, object> = {
  k6: { check, sleep },
  'k6/http': {
    default: {
      post: (u: string, b: string, p?: object) => request('POST', u, b, p),
      del: (u: string, b: string | null, p?: object) => request('DELETE', u, b, p),
    },
  },
  'k6/ws': { default: { connect } },
  'k6/metrics': { Counter: metric('counter'), Rate: metric('rate'), Trend: metric('trend'), Gauge: metric('gauge') },
  'k6/execution': { default: { vu: { idInTest: 1 } } },
};

(globalThis as { __ENV?: object }).__ENV = init.env;
const script: { exports: Record<string, (data?: unknown) => unknown> } = { exports: {} };
new Function('module', 'exports', 'require', init.bundle)(script, script.exports, (name: string) => {
  if (!(name in modules)) throw new Error(`k6 shim: no module ${name}`);
  return { __esModule: true, ...modules[name] };
});
let error: string | undefined;
try {
  const data = script.exports['setup']?.();
  try {
    for (let i = 0; i < init.iterations; i++) script.exports['default']!(data);
  } finally {
    script.exports['teardown']?.(data);
  }
} catch (err) {
  error = (err as Error).stack ?? String(err);
}
post({ kind: 'done', samples, error });
