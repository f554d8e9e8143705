/** Jest-side glue for the conformance suite: one server per file, helpers shared by the files. */
import type { Config } from '@pty-ws/config';
import {
  ERROR_TABLE,
  newId,
  type BindingErrorCode,
  type ErrorPayload,
  type Message,
  type Task,
} from '@pty-ws/protocol';
import {
  TestContext,
  is,
  type CreateSessionBody,
  type Received,
  type ServerEnvelope,
  type TestClient,
} from '@pty-ws/testkit';

/** Starts a server in beforeAll and disposes it (and its clients) in afterAll. */
export function useServer(overrides: Partial<Config> = {}): () => TestContext {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await TestContext.start(overrides);
  });
  afterAll(async () => {
    await ctx?.dispose();
  });
  return () => {
    if (!ctx) throw new Error('server not started');
    return ctx;
  };
}

/** An interactive /bin/sh session: a small, predictable prompt and no login noise. */
export function shell(extra: CreateSessionBody = {}): CreateSessionBody {
  return {
    argv: ['/bin/sh'],
    env: { PS1: '$ ', PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cols: 80,
    rows: 24,
    ...extra,
  };
}

/**
 * A command whose OUTPUT contains `<tag>_<n>` while its terminal echo does not (the arithmetic
 * is only expanded by the shell), so seeing the marker proves the command ran.
 */
export function marker(tag: string): { cmd: string; re: RegExp; text: string } {
  const a = 40 + (tag.length % 7);
  return { cmd: `echo ${tag}_$((${a}+2))\n`, re: new RegExp(`${tag}_${a + 2}`), text: `${tag}_${a + 2}` };
}

export function userMessage(text: string): Message {
  return { message_id: newId(), role: 'ROLE_USER', parts: [{ text }] };
}

export function payloadOf<T>(frame: ServerEnvelope): T {
  return frame.payload as unknown as T;
}

export function jsonOf(r: Received): ServerEnvelope {
  if (r.type !== 'json') throw new Error(`expected a JSON frame, got ${r.type}`);
  return r.frame;
}

/**
 * Asserts a binding Error frame (§6): the documented code, a message, the request id echoed
 * (when given), an RFC 3339 ts, a sequence, and an `a2a_error` naming the A2A core error.
 */
export function expectBindingError(frame: ServerEnvelope, code: BindingErrorCode, requestId?: string): ErrorPayload {
  expect(frame.op).toBe('Error');
  const p = payloadOf<ErrorPayload>(frame);
  expect(p.code).toBe(code);
  expect(typeof p.message).toBe('string');
  expect(p.message.length).toBeGreaterThan(0);
  if (requestId !== undefined) expect(frame.id).toBe(requestId);
  expect(typeof frame.ts).toBe('string');
  expect(Number.isNaN(Date.parse(frame.ts))).toBe(false);
  expect(Number.isInteger(frame.sequence)).toBe(true);
  expect(typeof p.a2a_error).toBe('object');
  expect(p.a2a_error).not.toBeNull();
  expect(Object.keys(p.a2a_error).length).toBeGreaterThan(0);
  if (code !== 'REPLAY_OUT_OF_RANGE') {
    // The A2A core error name of the §6 table must be identifiable in the canonical object.
    expect(JSON.stringify(p.a2a_error)).toContain(ERROR_TABLE[code].a2aType);
  }
  return p;
}

/** Sends a request and asserts it fails with the given code. */
export async function expectRequestError(
  c: TestClient,
  op: string,
  payload: unknown,
  code: BindingErrorCode,
  extra: { replay_from?: number | null } = {},
): Promise<ErrorPayload> {
  const id = c.send(op, payload, extra);
  const r = await c.waitFor((f) => is.reply(id)(f) && is.error()(f), 3000);
  return expectBindingError(jsonOf(r), code, id);
}

/** The connection still answers: app-level ping → pong. */
export async function expectAlive(c: TestClient): Promise<void> {
  const reply = await c.request('ping', { client_ts: new Date().toISOString() });
  expect(reply.op).toBe('pong');
}

export const TERMINAL_STATES = ['COMPLETED', 'FAILED', 'CANCELED', 'REJECTED'];

/** Polls GetTask until the task is in a terminal state. */
export async function awaitTerminal(c: TestClient, taskId: string, timeoutMs = 5000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await c.request('GetTask', { task_id: taskId });
    if (r.op !== 'GetTask.Response') throw new Error(`GetTask failed: ${JSON.stringify(r.payload)}`);
    const task = payloadOf<{ task: Task }>(r).task;
    if (TERMINAL_STATES.includes(task.status.state)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status.state} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Every text in a task's artifacts (text parts, and file parts' base64 bytes decoded). */
export function artifactText(task: Task): string {
  const out: string[] = [];
  for (const a of task.artifacts ?? []) {
    for (const p of a.parts) {
      if ('text' in p && typeof p.text === 'string') out.push(p.text);
      else if ('file' in p && typeof (p.file as { bytes?: unknown }).bytes === 'string')
        out.push(Buffer.from((p.file as { bytes: string }).bytes, 'base64').toString('utf8'));
      else if ('data' in p) out.push(JSON.stringify(p.data));
    }
  }
  return out.join('\n');
}

/** True when some key mentioning "exit" holds `code`, or a text says "exit code <code>"/"exit status <code>". */
export function mentionsExitCode(value: unknown, code: number): boolean {
  const seen = new Set<unknown>();
  const visit = (v: unknown, key: string): boolean => {
    if (typeof v === 'number') return /exit/i.test(key) && v === code;
    if (typeof v === 'string')
      return (
        new RegExp(`exit(ed)?[ _-]?(code|status)?[^0-9]{0,4}${code}\\b`, 'i').test(v) ||
        (/exit/i.test(key) && v === String(code))
      );
    if (v && typeof v === 'object' && !seen.has(v)) {
      seen.add(v);
      return Object.entries(v as Record<string, unknown>).some(([k, x]) => visit(x, Array.isArray(v) ? key : k));
    }
    return false;
  };
  return visit(value, '');
}

/** Deep search for `key: value` anywhere in a JSON value. */
export function hasKeyValue(value: unknown, key: string, expected: unknown): boolean {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (k === key && v === expected) return true;
      if (hasKeyValue(v, key, expected)) return true;
    }
  }
  return false;
}

export function decodeSnapshot(snapshot: string): string {
  return Buffer.from(snapshot, 'base64').toString('utf8');
}
