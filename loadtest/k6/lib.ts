/**
 * Shared helpers of the k6 scenarios. k6 runs these files itself (TypeScript is stripped by k6's
 * bundler), so only k6 modules and plain ES2020 are used: no Node, no project packages.
 *
 * Environment: PTYWS_URL (http://127.0.0.1:8080), PTYWS_TOKEN (an admin token),
 * PTYWS_INSTANCE (local).
 */
import { check } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';

export { printFor } from '../src/load/print-loop.ts';

export const BASE = (__ENV['PTYWS_URL'] ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const WS_BASE = BASE.replace(/^http/, 'ws');
export const ADMIN_TOKEN = __ENV['PTYWS_TOKEN'] ?? '';
export const INSTANCE = __ENV['PTYWS_INSTANCE'] ?? 'local';
export const EXTENSION_URI = 'https://agentic-sandbox.aiwg.io/extensions/pty-extensions/v1';
export const BINARY = 'pty-ws.v1.binary';
export const JSON_PROTOCOL = 'pty-ws.v1';

function authHeaders(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
}

/** POST /api/v1/sessions; returns the session id (throws so setup() fails loudly). */
export function createSession(argv: string[]): string {
  const res = http.post(`${BASE}/api/v1/sessions`, JSON.stringify({ argv, cols: 120, rows: 30 }), {
    headers: authHeaders(ADMIN_TOKEN),
  });
  if (res.status !== 201) throw new Error(`create session: HTTP ${res.status} ${String(res.body).slice(0, 200)}`);
  return (res.json() as { session_id: string }).session_id;
}

/** DELETE on the REST API; an error text unless it worked (404: already gone). */
function remove(path: string): string | undefined {
  const res = http.del(`${BASE}${path}`, null, { headers: authHeaders(ADMIN_TOKEN) });
  return res.status < 300 || res.status === 404 ? undefined : `DELETE ${path}: HTTP ${res.status}`;
}

/** A minted token: `id` revokes it, `token` (shown once) is the bearer. */
export interface MintedToken {
  id: string;
  token: string;
}

/** POST /api/v1/tokens; teardown() revokes it with cleanUp(…, [id]). */
export function mintToken(body: { scopes: string[]; session_id?: string; ttl_seconds?: number }): MintedToken {
  const res = http.post(
    `${BASE}/api/v1/tokens`,
    JSON.stringify({ instance_id: INSTANCE, ttl_seconds: 3600, ...body }),
    {
      headers: authHeaders(ADMIN_TOKEN),
    },
  );
  if (res.status !== 201 && res.status !== 200) throw new Error(`mint token: HTTP ${res.status}`);
  const minted = res.json() as { token_id: string; token: string };
  return { id: minted.token_id, token: minted.token };
}

/**
 * teardown(): deletes every session (its program is stopped) and revokes every token a script
 * made, all of them even when one fails, then throws the failures so k6 reports them.
 */
export function cleanUp(sessionIds: string[], tokenIds: string[] = []): void {
  const errors = [
    ...sessionIds.map((id) => remove(`/api/v1/sessions/${id}`)),
    ...tokenIds.map((id) => remove(`/api/v1/tokens/${id}`)),
  ].filter((e): e is string => e !== undefined);
  if (errors.length) throw new Error(`teardown: ${errors.join('; ')}`);
}

/**
 * k6 passes a threshold on a Trend or Rate that got no samples (its sink reads 0), so every
 * threshold metric M is guarded by `'ptyws_samples{of:M}': ['count>0']`: a Counter reads 0 when
 * nothing was added, and `count>0` then fails.
 */
const samples = new Counter('ptyws_samples');

/** One sample went into metric `of` (call it next to each add / check / connect it guards). */
export function sampled(of: string): void {
  samples.add(1, { of });
}

/** k6's check() on one boolean, counted for the `checks` guard. */
export function verify(name: string, ok: boolean): boolean {
  sampled('checks');
  return check(ok, { [name]: (v) => v });
}

type Clock = { now(): number };
const perf = (globalThis as { performance?: Clock }).performance;

/** ms on the finest clock k6 offers: `performance.now()` where the runtime has it, else Date.now(). */
export function now(): number {
  return perf && typeof perf.now === 'function' ? perf.now() : Date.now();
}

export function attachUrl(sessionId: string): string {
  return `${WS_BASE}/agents/${INSTANCE}/sessions/${sessionId}/attach`;
}

/** Upgrade headers: k6/ws has no subprotocol parameter, so the header is set by hand. */
export function wsParams(token: string, protocol: string): { headers: Record<string, string> } {
  return { headers: { Authorization: `Bearer ${token}`, 'Sec-WebSocket-Protocol': protocol } };
}

function hex(n: number, digits: number): string {
  return Math.floor(n).toString(16).padStart(digits, '0').slice(-digits);
}

/** A UUIDv7 (the envelope schema requires one): 48-bit ms timestamp, version 7, variant 10. */
export function uuidv7(): string {
  const ms = Date.now();
  const r = (): number => Math.random() * 0x10000;
  return [
    hex(ms / 0x10000, 8),
    hex(ms % 0x10000, 4),
    '7' + hex(r(), 3),
    hex(0x8000 | (r() & 0x3fff), 4),
    hex(r(), 4) + hex(r(), 4) + hex(r(), 4),
  ].join('-');
}

/** A client envelope; the first frame of a connection carries the extension list. */
export function frame(op: string, payload: object, extra: { replay_from?: number; first?: boolean } = {}): string {
  const env: Record<string, unknown> = { op, id: uuidv7(), ts: new Date().toISOString(), payload };
  if (extra.replay_from !== undefined) env['replay_from'] = extra.replay_from;
  if (extra.first) env['extensions'] = [EXTENSION_URI];
  return JSON.stringify(env);
}

export interface ServerFrame {
  op?: string;
  id?: string;
  sequence?: number;
  payload?: { kind?: string; code?: string; anchor_sequence?: number; role?: string };
}

export function parse(data: string): ServerFrame {
  try {
    return JSON.parse(data) as ServerFrame;
  } catch {
    return {};
  }
}

/** The join flush's Keyframe (unlogged: its sequence is its anchor; cadence ones are anchor+1). */
export function isFlushKeyframe(f: ServerFrame): boolean {
  return (
    f.op === 'pty.session_frame' &&
    f.payload?.kind === 'Keyframe' &&
    f.sequence !== (f.payload.anchor_sequence ?? -2) + 1
  );
}

/** `PW1I` + bytes. */
export function pw1i(text: string): ArrayBuffer {
  const out = new Uint8Array(4 + text.length);
  out.set([0x50, 0x57, 0x31, 0x49], 0);
  for (let i = 0; i < text.length; i++) out[4 + i] = text.charCodeAt(i) & 0xff;
  return out.buffer;
}

/** `PW1O` header: magic, u64 BE sequence, stream id. Returns the sequence, or -1. */
export function pw1oSequence(data: ArrayBuffer): number {
  const b = new Uint8Array(data);
  if (b.length < 13 || b[0] !== 0x50 || b[1] !== 0x57 || b[2] !== 0x31 || b[3] !== 0x4f) return -1;
  return new DataView(data).getUint32(8, false);
}

/** PW1O payload as latin1 text (for finding a typed character). */
export function pw1oText(data: ArrayBuffer): string {
  const b = new Uint8Array(data, 13);
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i] as number);
  return s;
}
