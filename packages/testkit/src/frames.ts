/**
 * What a test client receives, and small pure helpers to read it. Server JSON frames are kept
 * parsed; binary frames are kept as Buffers (PW1O output, or whatever else the server sent).
 */
import {
  decodeBase64,
  decodeOutputFrame,
  type BindingErrorCode,
  type Envelope,
  type ErrorPayload,
  type SessionFrameKind,
  type SessionFramePayload,
  type TaskStatusUpdatePayload,
} from '@pty-ws/protocol';

export type ServerEnvelope = Envelope<Record<string, unknown> | null>;

export type Received =
  | { type: 'json'; frame: ServerEnvelope; raw: string; at: number }
  | { type: 'binary'; data: Buffer; at: number }
  | { type: 'text'; text: string; at: number };

export type FramePredicate = (r: Received) => boolean;

export function jsonFrame(r: Received): ServerEnvelope | undefined {
  return r.type === 'json' ? r.frame : undefined;
}

/** The `pty.session_frame` payload, when the frame is one. */
export function sessionFrame(r: Received): SessionFramePayload | undefined {
  if (r.type !== 'json' || r.frame.op !== 'pty.session_frame' || !r.frame.payload) return undefined;
  return r.frame.payload as unknown as SessionFramePayload;
}

export function sessionFrameOf<K extends SessionFrameKind>(
  r: Received,
  kind: K,
): Extract<SessionFramePayload, { kind: K }> | undefined {
  const p = sessionFrame(r);
  return p && p.kind === kind ? (p as Extract<SessionFramePayload, { kind: K }>) : undefined;
}

/** Decoded PW1O frame, or undefined for anything else. */
export function pw1o(r: Received): { sequence: number; streamId: number; data: Buffer } | undefined {
  if (r.type !== 'binary') return undefined;
  try {
    const d = decodeOutputFrame(r.data);
    return { sequence: d.sequence, streamId: r.data[12] ?? 0, data: Buffer.from(d.data) };
  } catch {
    return undefined;
  }
}

/** PTY output bytes carried by the frame (JSON base64 `Output` or binary `PW1O`). */
export function outputBytes(r: Received): Buffer | undefined {
  const out = sessionFrameOf(r, 'Output');
  if (out) return Buffer.from(decodeBase64(out.data));
  return pw1o(r)?.data;
}

export function isOutput(r: Received): boolean {
  return outputBytes(r) !== undefined;
}

/** The server-assigned sequence of the frame (envelope `sequence`, or the PW1O header). */
export function seqOf(r: Received): number | undefined {
  if (r.type === 'json') return typeof r.frame.sequence === 'number' ? r.frame.sequence : undefined;
  return pw1o(r)?.sequence;
}

export function errorPayloadOf(r: Received): ErrorPayload | undefined {
  if (r.type !== 'json' || r.frame.op !== 'Error' || !r.frame.payload) return undefined;
  return r.frame.payload as unknown as ErrorPayload;
}

export function taskUpdateOf(r: Received): TaskStatusUpdatePayload | undefined {
  if (r.type !== 'json' || r.frame.op !== 'TaskStatusUpdate' || !r.frame.payload) return undefined;
  return r.frame.payload as unknown as TaskStatusUpdatePayload;
}

/**
 * Frames that belong to the session's shared story (docs/spec/README.md interpretation 1) and so take a
 * fresh sequence number. Keyframes are ambiguous (cadence keyframes are logged, join/request
 * keyframes are not) and are classified by `isAmbiguousKeyframe`.
 */
export function isLogFrame(r: Received): boolean {
  if (r.type === 'binary') return pw1o(r) !== undefined;
  if (r.type !== 'json') return false;
  if (r.frame.op === 'TaskStatusUpdate') return true;
  const p = sessionFrame(r);
  if (!p) return false;
  switch (p.kind) {
    case 'Output':
    case 'Resize':
    case 'MembershipChanged':
    case 'Closed':
      return true;
    default:
      return false;
  }
}

export function isKeyframe(r: Received): boolean {
  return sessionFrameOf(r, 'Keyframe') !== undefined;
}

/**
 * Frames that may be either logged (fresh number) or addressed to one connection (the last
 * number written to it): Keyframes (cadence vs join/request), and `PTY_OUTPUT_LAGGED`, which
 * interpretation 1 lists as logged while a per-connection skip-forward is naturally addressed
 * to the lagging connection only.
 */
export function isEitherLogOrConnectionFrame(r: Received): boolean {
  return isKeyframe(r) || sessionFrameOf(r, 'Error')?.code === 'PTY_OUTPUT_LAGGED';
}

// ---- predicates -------------------------------------------------------------------------------
export const is = {
  op:
    (op: string): FramePredicate =>
    (r) =>
      r.type === 'json' && r.frame.op === op,
  kind:
    (kind: SessionFrameKind): FramePredicate =>
    (r) =>
      sessionFrame(r)?.kind === kind,
  error:
    (code?: BindingErrorCode): FramePredicate =>
    (r) => {
      const e = errorPayloadOf(r);
      return e !== undefined && (code === undefined || e.code === code);
    },
  /** Any frame echoing this request id (its response or its Error). */
  reply:
    (id: string): FramePredicate =>
    (r) =>
      r.type === 'json' && r.frame.id === id,
  taskUpdate:
    (taskId?: string): FramePredicate =>
    (r) => {
      const u = taskUpdateOf(r);
      return u !== undefined && (taskId === undefined || u.task.id === taskId);
    },
  output: (): FramePredicate => isOutput,
  binary: (): FramePredicate => (r) => r.type === 'binary',
  any: (): FramePredicate => () => true,
};

export function describeFrame(r: Received): string {
  if (r.type === 'binary') {
    const o = pw1o(r);
    return o ? `PW1O#${o.sequence}(${clip(o.data.toString('utf8'))})` : `binary(${r.data.length}B)`;
  }
  if (r.type === 'text') return `text(${r.text.slice(0, 80)})`;
  const f = r.frame;
  const p = sessionFrame(r);
  let detail = '';
  if (p?.kind === 'Output') detail = clip(Buffer.from(decodeBase64(p.data)).toString('utf8'));
  else if (p?.kind === 'Error') detail = `Error ${p.code}`;
  else if (p) detail = p.kind;
  else if (f.op === 'Error') detail = String(errorPayloadOf(r)?.code);
  else if (f.op === 'TaskStatusUpdate') detail = String(taskUpdateOf(r)?.task.status.state);
  return `${f.op}#${String(f.sequence)}${detail ? `(${detail})` : ''}`;
}

function clip(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max / 2)}…${text.slice(-max / 2)}` : text);
}

/** A WebSocket message as a Received frame: parsed JSON envelope, binary, or (unparsable) text. */
export function receivedFrame(data: Buffer, isBinary: boolean): Received {
  const at = Date.now();
  if (isBinary) return { type: 'binary', data: Buffer.from(data), at };
  const text = data.toString('utf8');
  try {
    const frame = JSON.parse(text) as ServerEnvelope;
    if (frame && typeof frame === 'object' && typeof frame.op === 'string')
      return { type: 'json', frame, raw: text, at };
  } catch {
    // not JSON: kept as text
  }
  return { type: 'text', text, at };
}
