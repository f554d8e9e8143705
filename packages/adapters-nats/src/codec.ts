import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import type { EventEntry, LogCut, LogEntry, OutputEntry } from '@pty-ws/ports';
import { allocOutputBytes, type OutputStream, type ServiceParameters } from '@pty-ws/protocol';

/**
 * One log message on `<prefix>.frames.<session>`. The entry's fields travel as headers so
 * Output bodies stay the raw PTY bytes (no base64, no JSON) and tools can read a message's
 * sequence without parsing it; an event's body is JSON `{ payload, serviceParameters? }`.
 *
 * A third kind, the mark, is not an entry: `trim` writes one when it drops every entry, so
 * the subject still remembers the last sequence (`Ptyws-Seq`) and the log carries on from it.
 */
export const H = {
  seq: 'Ptyws-Seq',
  type: 'Ptyws-Type',
  id: 'Ptyws-Id',
  ts: 'Ptyws-Ts',
  stream: 'Ptyws-Stream',
  op: 'Ptyws-Op',
  task: 'Ptyws-Task',
} as const;

export type Decoded = { kind: 'entry'; entry: LogEntry } | { kind: 'mark'; seq: number };

/** What trimming needs, readable from a headers-only delivery. */
export interface Meta {
  kind: 'entry' | 'mark';
  seq: number;
  ts: number;
}

export class FrameDecodeError extends Error {
  constructor(message: string) {
    super(`malformed frame log message: ${message}`);
    this.name = 'FrameDecodeError';
  }
}

const OUTPUT_STREAMS: ReadonlySet<string> = new Set<OutputStream>(['stdout', 'stderr', 'log']);
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export function encodeEntry(entry: LogEntry): { headers: MsgHdrs; body: Uint8Array } {
  const h = natsHeaders();
  h.set(H.seq, String(entry.seq));
  h.set(H.type, entry.type);
  h.set(H.id, headerText(entry.id));
  h.set(H.ts, String(entry.ts));
  if (entry.type === 'output') {
    h.set(H.stream, entry.stream);
    return { headers: h, body: entry.data };
  }
  h.set(H.op, headerText(entry.op));
  if (entry.taskId !== undefined) h.set(H.task, headerText(entry.taskId));
  const body: { payload: Record<string, unknown>; serviceParameters?: ServiceParameters } = { payload: entry.payload };
  if (entry.serviceParameters !== undefined) body.serviceParameters = entry.serviceParameters;
  return { headers: h, body: utf8.encode(JSON.stringify(body)) };
}

export function encodeMark(lastSeq: number): MsgHdrs {
  const h = natsHeaders();
  h.set(H.seq, String(lastSeq));
  h.set(H.type, 'mark');
  return h;
}

export function decodeMeta(h: MsgHdrs | undefined): Meta {
  const type = required(h, H.type);
  const seq = integer(h, H.seq);
  if (type === 'mark') return { kind: 'mark', seq, ts: Number.NaN };
  if (type !== 'output' && type !== 'event') throw new FrameDecodeError(`unknown ${H.type} '${type}'`);
  return { kind: 'entry', seq, ts: finite(h, H.ts) };
}

/**
 * `data` is copied (the client hands out views into its read buffer), into a buffer with room for
 * the PW1O header: the edge's hub then frames each Output in place instead of copying it again.
 */
export function decode(h: MsgHdrs | undefined, data: Uint8Array): Decoded {
  const meta = decodeMeta(h);
  if (meta.kind === 'mark') return { kind: 'mark', seq: meta.seq };
  const base = { seq: meta.seq, id: fromHeaderText(required(h, H.id)), ts: meta.ts };
  if (required(h, H.type) === 'output') {
    const stream = required(h, H.stream);
    if (!OUTPUT_STREAMS.has(stream)) throw new FrameDecodeError(`unknown ${H.stream} '${stream}'`);
    const copy = allocOutputBytes(data.byteLength, Buffer.allocUnsafe); // no zero fill: copied over at once
    copy.set(data);
    const entry: OutputEntry = { type: 'output', ...base, stream: stream as OutputStream, data: copy };
    return { kind: 'entry', entry };
  }
  const body = parseEventBody(data);
  const entry: EventEntry = { type: 'event', ...base, op: fromHeaderText(required(h, H.op)), payload: body.payload };
  const task = h?.get(H.task);
  if (task) entry.taskId = fromHeaderText(task);
  if (body.serviceParameters !== undefined) entry.serviceParameters = body.serviceParameters;
  return { kind: 'entry', entry };
}

function parseEventBody(data: Uint8Array): { payload: Record<string, unknown>; serviceParameters?: ServiceParameters } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromUtf8.decode(data));
  } catch {
    throw new FrameDecodeError('event body is not JSON');
  }
  if (!isRecord(parsed) || !isRecord(parsed.payload)) throw new FrameDecodeError('event body has no payload object');
  const { serviceParameters } = parsed;
  if (serviceParameters !== undefined && !isRecord(serviceParameters)) {
    throw new FrameDecodeError('event serviceParameters is not an object');
  }
  return serviceParameters === undefined ? { payload: parsed.payload } : { payload: parsed.payload, serviceParameters };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Header values must be single-line ASCII; ids and op names normally are, and URI-encoding leaves
 * those unchanged (readable), while anything else survives the trip.
 */
function headerText(value: string): string {
  return encodeURIComponent(value);
}

function fromHeaderText(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new FrameDecodeError(`undecodable header value '${value}'`);
  }
}

function required(h: MsgHdrs | undefined, name: string): string {
  const value = h?.get(name);
  if (!value) throw new FrameDecodeError(`missing ${name} header`);
  return value;
}

function finite(h: MsgHdrs | undefined, name: string): number {
  const value = Number(required(h, name));
  if (!Number.isFinite(value)) throw new FrameDecodeError(`${name} is not a number`);
  return value;
}

function integer(h: MsgHdrs | undefined, name: string): number {
  const value = finite(h, name);
  if (!Number.isInteger(value)) throw new FrameDecodeError(`${name} is not an integer`);
  return value;
}

/** A LogCut notice as JSON (core NATS, not a stored message). */
export function encodeCut(cut: LogCut): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ last_seq: cut.lastSeq, message: cut.message }));
}

/** The notice, or undefined when it is not one. */
export function decodeCut(data: Uint8Array): LogCut | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(data));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { last_seq: lastSeq, message } = parsed as Record<string, unknown>;
  if (!Number.isSafeInteger(lastSeq) || typeof message !== 'string') return undefined;
  return { lastSeq: lastSeq as number, message };
}
