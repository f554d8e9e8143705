/**
 * An A2A v1.0 client written from the specification text alone (§8 discovery, §9 JSON-RPC, §11
 * HTTP+JSON, §5.4 errors): plain `fetch`, its own SSE reader and its own types. It imports nothing
 * from pty-ws, so a server that only agrees with itself fails against it.
 */
import { readEventStream } from './sse';
import {
  JSONRPC_CODES,
  type A2aErrorName,
  type AgentCard,
  type AgentInterface,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type SendMessageRequest,
  type SendMessageResponse,
  type StreamResponse,
  type Task,
  type TaskPushNotificationConfig,
} from './types';

export interface ClientOptions {
  fetch: typeof fetch;
  /** Sent as `Authorization: Bearer …` (the card's http/bearer scheme). */
  token?: string;
  /** Extra headers (service parameters, §3.2.6), e.g. A2A-Version overrides. */
  headers?: Record<string, string>;
}

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

/** A failed call as the binding reported it. */
export class A2aClientError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    /** The JSON-RPC code (JSON-RPC binding) or undefined (HTTP+JSON). */
    readonly code: number | undefined,
    /** google.rpc.ErrorInfo reason, e.g. TASK_NOT_FOUND. */
    readonly reason: string | undefined,
    readonly domain: string | undefined,
  ) {
    super(message);
    this.name = 'A2aClientError';
  }

  /** The A2A error the code names (JSON-RPC), or the one the reason names (HTTP+JSON). */
  get errorName(): A2aErrorName | undefined {
    const byCode = (Object.keys(JSONRPC_CODES) as A2aErrorName[]).find((n) => JSONRPC_CODES[n] === this.code);
    if (byCode) return byCode;
    if (!this.reason || this.domain !== 'a2a-protocol.org') return undefined;
    // §10.6: the reason is the error type in UPPER_SNAKE_CASE without the "Error" suffix.
    return (Object.keys(JSONRPC_CODES) as A2aErrorName[]).find(
      (n) =>
        n
          .replace(/Error$/, '')
          .replace(/([a-z])([A-Z])/g, '$1_$2')
          .toUpperCase() === this.reason,
    );
  }
}

function errorInfo(details: unknown): { reason?: string; domain?: string } {
  if (!Array.isArray(details)) return {};
  const info = details.find((d) => (d as { '@type'?: unknown })?.['@type'] === ERROR_INFO) as
    { reason?: string; domain?: string } | undefined;
  return info ?? {};
}

/** §8.2: the well-known URI at the host root (RFC 8615). */
export async function discover(
  baseUrl: string,
  opts: ClientOptions,
  path = '/.well-known/agent-card.json',
): Promise<AgentCard> {
  const res = await opts.fetch(new URL(path, baseUrl), {
    headers: { accept: 'application/json', 'A2A-Version': '1.0' },
  });
  if (res.status !== 200) throw new Error(`AgentCard at ${path}: HTTP ${res.status}`);
  const card = (await res.json()) as AgentCard;
  for (const field of ['name', 'description', 'version', 'supportedInterfaces', 'capabilities', 'skills'] as const) {
    if (card[field] === undefined) throw new Error(`AgentCard without REQUIRED ${field}`);
  }
  return card;
}

/** The operations of §3.1, whatever the binding. */
export interface A2aBinding {
  readonly url: string;
  sendMessage(req: SendMessageRequest): Promise<SendMessageResponse>;
  sendStreamingMessage(req: SendMessageRequest): AsyncIterable<StreamResponse>;
  getTask(id: string, historyLength?: number): Promise<Task>;
  listTasks(req: ListTasksRequest): Promise<ListTasksResponse>;
  cancelTask(id: string): Promise<Task>;
  subscribeToTask(id: string): AsyncIterable<StreamResponse>;
  createPushConfig(config: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig>;
  getPushConfig(taskId: string, id: string): Promise<TaskPushNotificationConfig>;
  listPushConfigs(taskId: string): Promise<ListTaskPushNotificationConfigsResponse>;
  deletePushConfig(taskId: string, id: string): Promise<void>;
  getExtendedAgentCard(): Promise<AgentCard>;
}

/** The client for the card's interface of `protocolBinding` (§5.2: the client chooses). */
export function connect(card: AgentCard, protocolBinding: 'JSONRPC' | 'HTTP+JSON', opts: ClientOptions): A2aBinding {
  const iface: AgentInterface | undefined = card.supportedInterfaces.find((i) => i.protocolBinding === protocolBinding);
  if (!iface) throw new Error(`the AgentCard declares no ${protocolBinding} interface`);
  if (!iface.protocolVersion.startsWith('1.')) throw new Error(`interface speaks A2A ${iface.protocolVersion}`);
  return protocolBinding === 'JSONRPC' ? new JsonRpcClient(iface.url, opts) : new RestClient(iface.url, opts);
}

function headersOf(opts: ClientOptions, extra: Record<string, string>): Record<string, string> {
  return {
    'A2A-Version': '1.0',
    ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    ...extra,
    ...(opts.headers ?? {}),
  };
}

// ---- §9 JSON-RPC 2.0 ------------------------------------------------------------------------------

let nextId = 1;

class JsonRpcClient implements A2aBinding {
  constructor(
    readonly url: string,
    private readonly opts: ClientOptions,
  ) {}

  private async post(method: string, params: unknown, stream: boolean): Promise<{ res: Response; id: number }> {
    const id = nextId++;
    const res = await this.opts.fetch(this.url, {
      method: 'POST',
      headers: headersOf(this.opts, {
        'content-type': 'application/json',
        accept: stream ? 'text/event-stream' : 'application/json',
      }),
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    return { res, id };
  }

  /** §9.5: a response is `result` or `error` (integer code, message, optional data), with our id. */
  private static unwrap<T>(body: unknown, id: number, httpStatus: number): T {
    const r = body as {
      jsonrpc?: unknown;
      id?: unknown;
      result?: T;
      error?: { code: unknown; message: unknown; data?: unknown };
    };
    if (r?.jsonrpc !== '2.0') throw new Error(`not a JSON-RPC 2.0 response: ${JSON.stringify(body)}`);
    if (r.error) {
      const { code, message, data } = r.error;
      if (!Number.isInteger(code)) throw new Error(`error.code is not an integer: ${JSON.stringify(code)}`);
      if (typeof message !== 'string') throw new Error('error.message is not a string');
      const info = errorInfo(data);
      throw new A2aClientError(message, httpStatus, code as number, info.reason, info.domain);
    }
    if (r.id !== id) throw new Error(`response id ${JSON.stringify(r.id)} for request ${id}`);
    if (!('result' in r)) throw new Error('a JSON-RPC response without result or error');
    return r.result as T;
  }

  private async call<T>(method: string, params: unknown): Promise<T> {
    const { res, id } = await this.post(method, params, false);
    return JsonRpcClient.unwrap<T>(await res.json(), id, res.status);
  }

  private async *stream(method: string, params: unknown): AsyncGenerator<StreamResponse> {
    const { res, id } = await this.post(method, params, true);
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream')) {
      JsonRpcClient.unwrap(await res.json(), id, res.status); // throws the error it carries
      throw new Error(`expected an event stream, got ${type}`);
    }
    // §9.4.2: each event's data is a JSON-RPC response carrying the request id.
    for await (const event of readEventStream(res.body!)) {
      yield JsonRpcClient.unwrap<StreamResponse>(JSON.parse(event.data), id, res.status);
    }
  }

  sendMessage = (req: SendMessageRequest) => this.call<SendMessageResponse>('SendMessage', req);
  sendStreamingMessage = (req: SendMessageRequest) => this.stream('SendStreamingMessage', req);
  getTask = (id: string, historyLength?: number) =>
    this.call<Task>('GetTask', { id, ...(historyLength !== undefined ? { historyLength } : {}) });
  listTasks = (req: ListTasksRequest) => this.call<ListTasksResponse>('ListTasks', req);
  cancelTask = (id: string) => this.call<Task>('CancelTask', { id });
  subscribeToTask = (id: string) => this.stream('SubscribeToTask', { id });
  createPushConfig = (config: TaskPushNotificationConfig) =>
    this.call<TaskPushNotificationConfig>('CreateTaskPushNotificationConfig', config);
  getPushConfig = (taskId: string, id: string) =>
    this.call<TaskPushNotificationConfig>('GetTaskPushNotificationConfig', { taskId, id });
  listPushConfigs = (taskId: string) =>
    this.call<ListTaskPushNotificationConfigsResponse>('ListTaskPushNotificationConfigs', { taskId });
  deletePushConfig = async (taskId: string, id: string) => {
    await this.call<unknown>('DeleteTaskPushNotificationConfig', { taskId, id });
  };
  getExtendedAgentCard = () => this.call<AgentCard>('GetExtendedAgentCard', {});

  /** A raw request body, for the error cases a well-behaved client never sends. */
  async raw(body: string): Promise<unknown> {
    const res = await this.opts.fetch(this.url, {
      method: 'POST',
      headers: headersOf(this.opts, { 'content-type': 'application/json' }),
      body,
    });
    return res.json();
  }
}

// ---- §11 HTTP+JSON/REST ---------------------------------------------------------------------------

class RestClient implements A2aBinding {
  constructor(
    readonly url: string,
    private readonly opts: ClientOptions,
  ) {}

  private async request(method: string, path: string, body?: unknown, accept = 'application/json'): Promise<Response> {
    const res = await this.opts.fetch(`${this.url}${path}`, {
      method,
      headers: headersOf(this.opts, { accept, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status >= 400) throw await RestClient.error(res);
    return res;
  }

  /** §11.6: google.rpc.Status (`{error: {code, status, message, details[]}}`) with an ErrorInfo. */
  private static async error(res: Response): Promise<A2aClientError> {
    const body = (await res.json().catch(() => undefined)) as
      { error?: { code?: number; message?: string; details?: unknown } } | undefined;
    const info = errorInfo(body?.error?.details);
    return new A2aClientError(
      body?.error?.message ?? `HTTP ${res.status}`,
      res.status,
      undefined,
      info.reason,
      info.domain,
    );
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await (await this.request(method, path, body)).json()) as T;
  }

  private async *stream(method: string, path: string, body?: unknown): AsyncGenerator<StreamResponse> {
    const res = await this.request(method, path, body, 'text/event-stream');
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream')) throw new Error(`expected an event stream, got ${type}`);
    // §11.7: each event's data is a StreamResponse.
    for await (const event of readEventStream(res.body!)) yield JSON.parse(event.data) as StreamResponse;
  }

  /** §11.5: query parameters in camelCase. */
  private static query(params: Record<string, unknown>): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
    const s = q.toString();
    return s ? `?${s}` : '';
  }

  sendMessage = (req: SendMessageRequest) => this.json<SendMessageResponse>('POST', '/message:send', req);
  sendStreamingMessage = (req: SendMessageRequest) => this.stream('POST', '/message:stream', req);
  getTask = (id: string, historyLength?: number) =>
    this.json<Task>('GET', `/tasks/${encodeURIComponent(id)}${RestClient.query({ historyLength })}`);
  listTasks = (req: ListTasksRequest) =>
    this.json<ListTasksResponse>('GET', `/tasks${RestClient.query(req as Record<string, unknown>)}`);
  cancelTask = (id: string) => this.json<Task>('POST', `/tasks/${encodeURIComponent(id)}:cancel`, {});
  subscribeToTask = (id: string) => this.stream('GET', `/tasks/${encodeURIComponent(id)}:subscribe`);
  createPushConfig = (config: TaskPushNotificationConfig) =>
    this.json<TaskPushNotificationConfig>(
      'POST',
      `/tasks/${encodeURIComponent(config.taskId)}/pushNotificationConfigs`,
      config,
    );
  getPushConfig = (taskId: string, id: string) =>
    this.json<TaskPushNotificationConfig>(
      'GET',
      `/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs/${encodeURIComponent(id)}`,
    );
  listPushConfigs = (taskId: string) =>
    this.json<ListTaskPushNotificationConfigsResponse>(
      'GET',
      `/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs`,
    );
  deletePushConfig = async (taskId: string, id: string) => {
    await this.request(
      'DELETE',
      `/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs/${encodeURIComponent(id)}`,
    );
  };
  getExtendedAgentCard = () => this.json<AgentCard>('GET', '/extendedAgentCard');
}

/** The JSON-RPC client's raw sender (error-code tests), if `b` is one. */
export function rawJsonRpc(b: A2aBinding): ((body: string) => Promise<unknown>) | undefined {
  return b instanceof JsonRpcClient ? (body) => b.raw(body) : undefined;
}
