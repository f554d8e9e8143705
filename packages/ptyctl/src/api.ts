/**
 * The admin REST API (docs/api.md) as typed calls. Bodies are checked for the fields the
 * CLI relies on; anything else the server adds is passed through untouched for `--json`.
 */
import { CliError, ExitCode } from './exit-codes';
import { call, callRaw } from './rest';
import type { Settings } from './settings';

export interface SessionView {
  session_id: string;
  instance_id: string;
  state: string;
  argv?: string[];
  cwd?: string;
  cols?: number;
  rows?: number;
  pid?: number | null;
  created_at?: string;
  closed_at?: string | null;
  exit_code?: number | null;
  closed_reason?: string | null;
  attach_url?: string;
  members?: { controllers?: number; observers?: number };
  replay?: {
    first_sequence?: number;
    last_sequence?: number;
    hot_window_misses?: number;
    frames_retained?: number;
    frames_archived?: number | null;
    overflowed?: boolean;
  };
  [field: string]: unknown;
}

export interface TokenView {
  token_id: string;
  scopes: string[];
  instance_id?: string;
  session_id?: string | null;
  label?: string | null;
  created_at?: string;
  expires_at?: string | null;
  last_used_at?: string | null;
  revoked_at?: string | null;
  [field: string]: unknown;
}

/** `token create` answer: the view plus the secret, shown once. */
export interface MintedToken extends TokenView {
  token: string;
}

export interface CreateSessionRequest {
  argv?: string[];
  command?: string;
  cwd?: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  session_backend?: string;
  session_class?: string;
  task_executor?: string;
}

export interface CreateTokenRequest {
  scopes: string[];
  instance_id?: string;
  session_id?: string;
  ttl_seconds?: number;
  label?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unexpected(what: string): CliError {
  return new CliError(ExitCode.FAILURE, `unexpected answer from the server: ${what}`);
}

function asSession(v: unknown): SessionView {
  if (!isRecord(v) || typeof v['session_id'] !== 'string' || typeof v['state'] !== 'string') {
    throw unexpected('a session without session_id/state');
  }
  return v as SessionView;
}

function asToken(v: unknown): TokenView {
  if (!isRecord(v) || typeof v['token_id'] !== 'string' || !Array.isArray(v['scopes'])) {
    throw unexpected('a token without token_id/scopes');
  }
  return v as TokenView;
}

function listOf<T>(body: unknown, key: string, item: (v: unknown) => T): T[] {
  const list = isRecord(body) ? body[key] : undefined;
  if (!Array.isArray(list)) throw unexpected(`no '${key}' list`);
  return list.map(item);
}

/**
 * A 404 on a session's or token's path means that one is unknown: say so with its id
 * ("session not found: nope") instead of the server's wording and status.
 */
async function named<T>(what: 'session' | 'token', id: string, answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    if (err instanceof CliError && err.exitCode === ExitCode.NOT_FOUND) {
      throw new CliError(ExitCode.NOT_FOUND, `${what} not found: ${id}`);
    }
    throw err;
  }
}

const sessionPath = (id: string): string => `/api/v1/sessions/${encodeURIComponent(id)}`;
const tokenPath = (id: string): string => `/api/v1/tokens/${encodeURIComponent(id)}`;

export async function createSession(s: Settings, req: CreateSessionRequest): Promise<SessionView> {
  return asSession(await call(s, 'POST', '/api/v1/sessions', { json: req }));
}

export async function listSessions(s: Settings): Promise<SessionView[]> {
  return listOf(await call(s, 'GET', '/api/v1/sessions'), 'sessions', asSession);
}

export async function getSession(s: Settings, id: string): Promise<SessionView> {
  return asSession(await named('session', id, call(s, 'GET', sessionPath(id))));
}

export async function killSession(s: Settings, id: string): Promise<SessionView> {
  return asSession(await named('session', id, call(s, 'DELETE', sessionPath(id))));
}

export async function createToken(s: Settings, req: CreateTokenRequest): Promise<MintedToken> {
  const body = await call(s, 'POST', '/api/v1/tokens', { json: req });
  const view = asToken(body);
  if (typeof view['token'] !== 'string') throw unexpected('a minted token without the token');
  return view as MintedToken;
}

export async function listTokens(s: Settings): Promise<TokenView[]> {
  return listOf(await call(s, 'GET', '/api/v1/tokens'), 'tokens', asToken);
}

/** Revoke answers with the token's view, or only `{token_id}` when the store no longer has it. */
export async function revokeToken(s: Settings, id: string): Promise<{ token_id: string; [field: string]: unknown }> {
  const body = await named('token', id, call(s, 'DELETE', tokenPath(id)));
  if (!isRecord(body) || typeof body['token_id'] !== 'string') throw unexpected('a revoke answer without token_id');
  return body as { token_id: string };
}

/** One frame of a transcript page (GET /api/v1/sessions/{id}/transcript). */
export interface TranscriptFrame {
  sequence: number;
  ts: string;
  kind: string;
  source?: string;
  stream?: string;
  /** Output bytes, base64. */
  data?: string;
  payload?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface TranscriptMatch {
  start_seq: number;
  end_seq: number;
  text: string;
  before: string;
  after: string;
}

export interface TranscriptPage {
  session_id: string;
  state: string;
  first_seq: number;
  last_seq: number;
  from_seq: number;
  to_seq: number;
  frames: TranscriptFrame[];
  matches?: TranscriptMatch[];
  truncated: boolean;
  next_from_seq: number | null;
  [field: string]: unknown;
}

export interface TranscriptParams {
  fromSeq?: number;
  toSeq?: number;
  stream?: string;
  q?: string;
  limit?: number;
  format?: 'asciicast';
}

function transcriptPath(id: string, p: TranscriptParams): string {
  const q = new URLSearchParams();
  if (p.fromSeq !== undefined) q.set('from_seq', String(p.fromSeq));
  if (p.toSeq !== undefined) q.set('to_seq', String(p.toSeq));
  if (p.stream !== undefined) q.set('stream', p.stream);
  if (p.q !== undefined) q.set('q', p.q);
  if (p.limit !== undefined) q.set('limit', String(p.limit));
  if (p.format !== undefined) q.set('format', p.format);
  const query = q.toString();
  return `${sessionPath(id)}/transcript${query ? `?${query}` : ''}`;
}

export async function getTranscript(s: Settings, id: string, p: TranscriptParams): Promise<TranscriptPage> {
  const body = await named('session', id, call(s, 'GET', transcriptPath(id, p)));
  if (!isRecord(body) || !Array.isArray(body['frames']) || typeof body['to_seq'] !== 'number') {
    throw unexpected('a transcript without frames/to_seq');
  }
  return body as TranscriptPage;
}

/** The asciicast v2 export, as text. */
export async function getTranscriptCast(s: Settings, id: string, p: TranscriptParams): Promise<string> {
  return (await named('session', id, callRaw(s, 'GET', transcriptPath(id, { ...p, format: 'asciicast' })))).text;
}

/** The screen (docs/api.md, "Screen and wait"); `--json` prints every field the server sent. */
export interface ScreenView {
  lines: string[];
  [field: string]: unknown;
}

export async function getScreen(s: Settings, id: string, format: 'text' | 'ansi'): Promise<ScreenView> {
  const body = await call(s, 'GET', `${sessionPath(id)}/screen${format === 'ansi' ? '?format=ansi' : ''}`);
  if (!isRecord(body) || !Array.isArray(body['lines'])) throw unexpected('a screen without lines');
  return body as ScreenView;
}

export interface WaitParams {
  pattern?: string;
  regex?: boolean;
  quietMs?: number;
  timeoutMs: number;
  fromSeq?: number;
}

export interface WaitAnswer {
  condition: 'match' | 'quiet' | 'timeout' | 'closed';
  match: { text: string; seq: number; end_seq: number } | null;
  exit_code?: number | null;
  last_seq: number;
  output: string;
  [field: string]: unknown;
}

/** Time the server is given beyond the wait's own timeout to answer. */
const WAIT_ANSWER_GRACE_MS = 15_000;

export async function waitFor(s: Settings, id: string, p: WaitParams): Promise<WaitAnswer> {
  const q = new URLSearchParams();
  if (p.pattern !== undefined) q.set('pattern', p.pattern);
  if (p.regex) q.set('regex', 'true');
  if (p.quietMs !== undefined) q.set('quiet_ms', String(p.quietMs));
  q.set('timeout_ms', String(p.timeoutMs));
  if (p.fromSeq !== undefined) q.set('from_seq', String(p.fromSeq));
  const body = await call(s, 'GET', `${sessionPath(id)}/wait?${q.toString()}`, {
    timeoutMs: p.timeoutMs + WAIT_ANSWER_GRACE_MS,
  });
  if (!isRecord(body) || typeof body['condition'] !== 'string') throw unexpected('a wait answer without condition');
  return body as WaitAnswer;
}
