/** The admin REST API (`/api/v1`), typed and checked at run time: the server is a remote peer. */

export interface ReplayCounters {
  first_sequence: number;
  last_sequence: number;
  hot_window_misses: number;
}

/** Live member counts. The REST session view has none yet; see `memberCounts` in session-list.ts. */
export interface MemberCounts {
  controllers: number;
  observers: number;
}

export interface SessionView {
  session_id: string;
  instance_id: string;
  state: string;
  argv: string[];
  cwd: string | null;
  cols: number;
  rows: number;
  pid: number | null;
  created_at: string;
  exit_code: number | null;
  closed_reason: string | null;
  replay: ReplayCounters | undefined;
  /** Live `members: {controllers, observers}` of the sessions API (absent from older servers). */
  members: MemberCounts | undefined;
}

export interface CreateSessionRequest {
  argv?: string[];
  command?: string;
  cols?: number;
  rows?: number;
}

/** What the caller's own token may do (`GET /api/v1/whoami`). */
export interface Whoami {
  scopes: string[];
  sessionId: string | null;
  expiresAt: string | null;
  may: { observe: boolean; control: boolean; admin: boolean };
}

/** A freshly minted token: its secret is shown once and never again. */
export interface MintedToken {
  token: string;
  expiresAt: string | null;
}

export interface MintRequest {
  scopes: string[];
  session_id?: string;
  ttl_seconds?: number;
  label?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function counts(v: unknown): MemberCounts | undefined {
  if (!isRecord(v)) return undefined;
  const c = num(v['controllers']);
  const o = num(v['observers']);
  return c === null || o === null ? undefined : { controllers: c, observers: o };
}

function replay(v: unknown): ReplayCounters | undefined {
  if (!isRecord(v)) return undefined;
  return {
    first_sequence: num(v['first_sequence']) ?? 0,
    last_sequence: num(v['last_sequence']) ?? 0,
    hot_window_misses: num(v['hot_window_misses']) ?? 0,
  };
}

/** Returns undefined for anything without the two ids: such an entry cannot be opened anyway. */
export function parseSession(v: unknown): SessionView | undefined {
  if (!isRecord(v)) return undefined;
  const id = str(v['session_id']);
  const instance = str(v['instance_id']);
  if (!id || !instance) return undefined;
  const argv = Array.isArray(v['argv']) ? v['argv'].filter((a): a is string => typeof a === 'string') : [];
  return {
    session_id: id,
    instance_id: instance,
    state: str(v['state']) ?? 'unknown',
    argv,
    cwd: str(v['cwd']),
    cols: num(v['cols']) ?? 0,
    rows: num(v['rows']) ?? 0,
    pid: num(v['pid']),
    created_at: str(v['created_at']) ?? '',
    exit_code: num(v['exit_code']),
    closed_reason: str(v['closed_reason']),
    replay: replay(v['replay']),
    members: counts(v['members']),
  };
}

export class Api {
  /** `token` is read per call so a changed token applies without rebuilding the client. */
  constructor(
    private readonly token: () => string | undefined,
    private readonly base = '',
  ) {}

  async listSessions(signal?: AbortSignal): Promise<SessionView[]> {
    const body = await this.call('GET', '/api/v1/sessions', undefined, signal);
    const list = isRecord(body) && Array.isArray(body['sessions']) ? body['sessions'] : [];
    return list.map(parseSession).filter((s): s is SessionView => s !== undefined);
  }

  async createSession(req: CreateSessionRequest): Promise<SessionView> {
    const s = parseSession(await this.call('POST', '/api/v1/sessions', req));
    if (!s) throw new ApiError(0, 'BAD_RESPONSE', 'the server answered without a session id');
    return s;
  }

  async whoami(): Promise<Whoami> {
    const b = await this.call('GET', '/api/v1/whoami');
    const may = isRecord(b) && isRecord(b['may']) ? b['may'] : {};
    return {
      scopes: isRecord(b) && Array.isArray(b['scopes']) ? b['scopes'].filter((x) => typeof x === 'string') : [],
      sessionId: isRecord(b) ? str(b['session_id']) : null,
      expiresAt: isRecord(b) ? str(b['expires_at']) : null,
      may: { observe: may['observe'] === true, control: may['control'] === true, admin: may['admin'] === true },
    };
  }

  /** An observe-only token bound to one session, for sharing a read-only link. */
  mintObserveToken(sessionId: string, ttlSeconds: number): Promise<MintedToken> {
    return this.mintToken({
      scopes: ['pty:observe'],
      session_id: sessionId,
      ttl_seconds: ttlSeconds,
      label: 'dashboard share link',
    });
  }

  /** `POST /api/v1/tokens` (needs pty:admin); the secret is in the answer only. */
  async mintToken(req: MintRequest): Promise<MintedToken> {
    const b = await this.call('POST', '/api/v1/tokens', req);
    const token = isRecord(b) ? str(b['token']) : null;
    if (!token) throw new ApiError(0, 'BAD_RESPONSE', 'the server answered without a token');
    return { token, expiresAt: isRecord(b) ? str(b['expires_at']) : null };
  }

  /** The session's whole recorded output as asciicast v2 text (works for closed sessions). */
  async asciicast(sessionId: string): Promise<string> {
    const body = await this.call(
      'GET',
      `/api/v1/sessions/${encodeURIComponent(sessionId)}/transcript?format=asciicast`,
    );
    if (typeof body !== 'string') throw new ApiError(0, 'BAD_RESPONSE', 'the transcript is not asciicast text');
    return body;
  }

  async killSession(sessionId: string): Promise<void> {
    await this.call('DELETE', `/api/v1/sessions/${encodeURIComponent(sessionId)}`);
  }

  /**
   * Whether a session exists for this token, and its state when the token may list it: the
   * WebSocket upgrade of an unknown session fails with no reason a browser can read.
   */
  async sessionState(sessionId: string): Promise<'missing' | 'unauthorized' | 'unknown' | string> {
    const id = encodeURIComponent(sessionId);
    try {
      return parseSession(await this.call('GET', `/api/v1/sessions/${id}`))?.state ?? 'unknown';
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return 'missing';
      if (err instanceof ApiError && err.status === 401) return 'unauthorized';
      if (!(err instanceof ApiError && err.status === 403)) return 'unknown';
    }
    try {
      await this.call('GET', `/api/v1/sessions/${id}/transcript?limit=1`);
      return 'unknown';
    } catch (err) {
      return err instanceof ApiError && err.status === 404 ? 'missing' : 'unknown';
    }
  }

  private async call(method: string, path: string, json?: unknown, signal?: AbortSignal): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = this.token();
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers, cache: 'no-store', credentials: 'omit' };
    if (json !== undefined) init.body = JSON.stringify(json);
    if (signal) init.signal = signal;
    const res = await fetch(this.base + path, init);
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      body = undefined;
    }
    // asciicast is JSON lines, not one JSON document: hand it over as text.
    if (res.ok && (res.headers.get('content-type') ?? '').includes('asciicast')) return text;
    if (!res.ok) {
      const err = isRecord(body) && isRecord(body['error']) ? body['error'] : {};
      throw new ApiError(
        res.status,
        str(err['code']) ?? `HTTP_${res.status}`,
        str(err['message']) ?? `${method} ${path} failed with HTTP ${res.status}`,
      );
    }
    return body;
  }
}
