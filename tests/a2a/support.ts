/** Jest-side glue for the A2A control-plane suite: one server per file, one caller per binding. */
import { writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { A2A_TYPES, toA2aV1 } from '@pty-ws/a2a-proto';
import { EXTENSION_URI, newId, type Message, type Task } from '@pty-ws/protocol';
import { TestContext, http, type HttpResponse, type TestClient } from '@pty-ws/testkit';

/** One server per file, started in beforeAll and disposed in afterAll (the conformance suite's). */
export { useServer } from '../conformance/support';

export const restBase = (ctx: TestContext) => `/agents/${ctx.server.instanceId}/a2a/v1`;
export const jsonRpcPath = (ctx: TestContext) => `/agents/${ctx.server.instanceId}/a2a/jsonrpc`;

export interface CallOptions {
  /** Bearer token; default the admin token; null sends none. */
  token?: string | null;
  headers?: Record<string, string>;
}

/** One HTTP+JSON call below the instance's REST base. */
export function rest(
  ctx: TestContext,
  method: string,
  path: string,
  body?: unknown,
  opts: CallOptions = {},
): Promise<HttpResponse> {
  return http(ctx.server, method, `${restBase(ctx)}${path}`, {
    ...(body !== undefined ? { json: body } : {}),
    ...(opts.token !== undefined ? { token: opts.token } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
}

/** A `google.protobuf.Any` detail of an error (REST `details[]`, JSON-RPC `data[]`). */
export interface ErrorDetail {
  '@type': string;
  reason?: string;
  domain?: string;
  metadata?: Record<string, string>;
}

/** The google.rpc.ErrorInfo reason of an HTTP+JSON error body (AIP-193). */
export function reasonOf(body: unknown): string | undefined {
  return (body as { error?: { details?: Array<{ reason?: string }> } })?.error?.details?.[0]?.reason;
}

/** The google.rpc.ErrorInfo of a JSON-RPC error. */
export const errorInfoOf = (r: RpcResponse): ErrorDetail | undefined =>
  r.error?.data?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');

export interface RpcResponse {
  status: number;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: ErrorDetail[] };
  raw: HttpResponse;
}

/** One JSON-RPC 2.0 call. */
export async function rpc(
  ctx: TestContext,
  method: string,
  params: unknown,
  opts: CallOptions = {},
): Promise<RpcResponse> {
  const id = newId();
  const raw = await http(ctx.server, 'POST', jsonRpcPath(ctx), {
    json: { jsonrpc: '2.0', id, method, params },
    ...(opts.token !== undefined ? { token: opts.token } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
  const b = raw.body as Record<string, unknown>;
  if (raw.status === 200 && b?.['jsonrpc'] !== '2.0') throw new Error(`not a JSON-RPC response: ${raw.text}`);
  return {
    status: raw.status,
    id: b?.['id'],
    ...(b && 'result' in b ? { result: b['result'] } : {}),
    ...(b && 'error' in b ? { error: b['error'] as RpcResponse['error'] } : {}),
    raw,
  };
}

/** The result of a JSON-RPC call that must succeed. */
export async function rpcOk<T>(ctx: TestContext, method: string, params: unknown, opts: CallOptions = {}): Promise<T> {
  const r = await rpc(ctx, method, params, opts);
  if (r.error || r.status !== 200) throw new Error(`${method} failed: ${r.raw.text}`);
  return r.result as T;
}

/** The body of a REST call that must succeed with `status`. */
export async function restOk<T>(
  ctx: TestContext,
  method: string,
  path: string,
  body?: unknown,
  opts: CallOptions & { status?: number } = {},
): Promise<T> {
  const r = await rest(ctx, method, path, body, opts);
  if (r.status !== (opts.status ?? 200)) throw new Error(`${method} ${path} → ${r.status} ${r.text}`);
  return r.body as T;
}

/** A2A v1.0 JSON as the HTTP bindings write it (lowerCamelCase; only what these tests read). */
export interface V1Task {
  id: string;
  contextId: string;
  status: { state: string; timestamp?: string };
  artifacts?: { artifactId: string; parts: { text?: string }[] }[];
  history?: { messageId: string; role: string }[];
  metadata?: Record<string, unknown>;
}

export interface V1List {
  tasks: V1Task[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** A pty-ws/v1 task (WebSocket JSON) as the HTTP bindings render it: what they must agree on. */
export const asV1 = (task: Task): V1Task => toA2aV1(A2A_TYPES.Task, task) as unknown as V1Task;

/** An endpoint as the card's pty-extensions params list it (pty-ws/v1 binding §10). */
export interface CardBinding {
  uri: string;
  endpoint: string;
  preference: string;
  operations: string[];
  notes: string;
  subprotocols?: string[];
}

/** The pty-extensions `params` of an AgentCard: where pty-ws's own card data (instance, bindings) lives. */
export function ptyWsParams(card: unknown): Record<string, unknown> & { instance_id: string; bindings: CardBinding[] } {
  const { capabilities } = card as { capabilities: { extensions: { uri: string; params?: unknown }[] } };
  const ours = capabilities.extensions.find((e) => e.uri === EXTENSION_URI);
  if (!ours?.params) throw new Error(`no ${EXTENSION_URI} params in the card`);
  return ours.params as Record<string, unknown> & { instance_id: string; bindings: CardBinding[] };
}

/** A user message that runs `text` in `sessionId` (the metadata key picks the session). */
export function textMessage(text: string, sessionId?: string): Message {
  return {
    message_id: newId(),
    role: 'ROLE_USER',
    parts: [{ text }],
    ...(sessionId ? { metadata: { session_id: sessionId } } : {}),
  };
}

/**
 * A command that runs until the test opens its gate, then prints `out`: the test decides when the
 * task finishes instead of racing a `sleep`.
 */
export function gated(out: string): { command: string; open: () => Promise<void> } {
  const gate = path.join(os.tmpdir(), `pty-ws-a2a-gate-${newId()}`);
  return {
    command: `while [ ! -e ${gate} ]; do sleep 0.05; done; rm -f ${gate}; echo ${out}`,
    open: () => writeFile(gate, ''),
  };
}

/** A session to run tasks in (the shell is not used by `process` tasks, but must exist). */
export async function newSession(ctx: TestContext): Promise<string> {
  const s = await ctx.createSession({ argv: ['/bin/sh'], env: { PS1: '$ ' }, cols: 80, rows: 24 });
  return s.session_id;
}

/** A pty-ws/v1 request on an attached socket; resolves with the reply's payload. */
export async function wsCall<T>(c: TestClient, op: string, payload: unknown): Promise<{ op: string; payload: T }> {
  const reply = await c.request(op, payload);
  return { op: reply.op, payload: reply.payload as T };
}

export async function wsTask(c: TestClient, taskId: string): Promise<Task> {
  const r = await wsCall<{ task: Task }>(c, 'GetTask', { task_id: taskId });
  if (r.op !== 'GetTask.Response') throw new Error(`GetTask over pty-ws failed: ${JSON.stringify(r.payload)}`);
  return r.payload.task;
}

/** Polls GetTask (REST) until the task is in one of `states`. */
export async function awaitState(
  ctx: TestContext,
  taskId: string,
  states: string[],
  timeoutMs = 8000,
): Promise<V1Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await restOk<V1Task>(ctx, 'GET', `/tasks/${taskId}`);
    if (states.some((s) => task.status.state === `TASK_STATE_${s}` || task.status.state === s)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A POST with a body and content type exactly as given (the testkit's `http` always says JSON). */
export function rawPost(
  ctx: TestContext,
  path: string,
  body: string,
  contentType: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${ctx.server.adminToken}`,
      'content-type': contentType,
      connection: 'close',
    };
    const req = request(ctx.server.httpUrl + path, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

// ---- Server-Sent Events -------------------------------------------------------------------------

export interface SseEvent {
  event?: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  contentType: string;
  /** Events received so far (a JSON body instead of a stream lands in `body`). */
  events: SseEvent[];
  body?: unknown;
  /** Resolves when the server ends the response. */
  done: Promise<void>;
  waitFor(pred: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

/** Opens a request whose answer is an SSE stream (or a JSON error); resolves once headers arrived. */
export function openSse(
  ctx: TestContext,
  method: string,
  path: string,
  body: unknown,
  opts: CallOptions = {},
): Promise<SseStream> {
  const headers: Record<string, string> = { accept: 'text/event-stream', connection: 'close', ...(opts.headers ?? {}) };
  const token = opts.token === undefined ? ctx.server.adminToken : opts.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(ctx.server.httpUrl + path, { method, headers, agent: false }, (res) => {
      const events: SseEvent[] = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      let text = '';
      const contentType = String(res.headers['content-type'] ?? '');
      const done = new Promise<void>((resolveDone) => {
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (!contentType.startsWith('text/event-stream')) return;
          buffer += chunk.toString('utf8');
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const lines = block.split('\n').filter((l) => !l.startsWith(':'));
            if (lines.length === 0) continue;
            const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
            const data = lines
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            events.push({ ...(event ? { event } : {}), data: JSON.parse(data) as unknown });
            waiters.splice(0).forEach((w) => w());
          }
        });
        res.on('end', () => {
          if (!contentType.startsWith('text/event-stream') && text) stream.body = JSON.parse(text) as unknown;
          waiters.splice(0).forEach((w) => w());
          resolveDone();
        });
        res.on('error', () => resolveDone());
        res.on('close', () => resolveDone());
      });
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        contentType,
        events,
        done,
        close: () => req.destroy(),
        async waitFor(pred, timeoutMs = 8000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const hit = events.find(pred);
            if (hit) return hit;
            if (Date.now() > deadline) throw new Error(`no matching SSE event; got ${JSON.stringify(events)}`);
            await Promise.race([
              new Promise<void>((r) => waiters.push(r)),
              new Promise((r) => setTimeout(r, 100)),
              done,
            ]);
          }
        },
      };
      resolve(stream);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Reads a whole stream: resolves with the events once the server ended it. */
export async function readSse(
  ctx: TestContext,
  method: string,
  path: string,
  body: unknown,
  opts: CallOptions = {},
): Promise<SseStream> {
  const s = await openSse(ctx, method, path, body, opts);
  await s.done;
  return s;
}

// ---- fetch for the official SDK client --------------------------------------------------------

/**
 * A `fetch` on node:http with one connection per request and a streaming body: the global fetch
 * pools keep-alive sockets that outlive a stopped server and keep jest running. Adds the bearer.
 */
export function nodeFetch(token: string | undefined): typeof fetch {
  return (input, init) =>
    new Promise((resolve, reject) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
      headers['connection'] = 'close';
      if (token) headers['authorization'] = `Bearer ${token}`;
      const req = request(url, { method: init?.method ?? 'GET', headers, agent: false }, (res) => {
        const status = res.statusCode ?? 0;
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        const body = status === 204 ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: h }));
      });
      req.on('error', reject);
      init?.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
      req.end(typeof init?.body === 'string' ? init.body : undefined);
    });
}
