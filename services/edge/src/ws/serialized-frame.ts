import { encodeBase64, encodeOutputFrame, rfc3339 } from '@pty-ws/protocol';
import type { LogEntry } from '@pty-ws/ports';

/** A log entry serialized once per wire format, shared by every socket that receives it. */
export interface SerializedFrame {
  seq: number;
  taskId?: string;
  /** The JSON text frame; for Output built on first read (then kept), for others decoded from `jsonBytes` once those are made. */
  readonly json: string;
  /**
   * `json` as UTF-8, made on first read (then kept): what the sockets are sent. uWS would encode a
   * string again for every socket it is sent to.
   */
  readonly jsonBytes: Uint8Array;
  /** PW1O bytes for Output entries; other entries travel as JSON text in both formats. */
  binary?: Uint8Array;
  bytes: number;
  /** A `Closed` frame's reason: the connections it is written to must be ended after it (log-cut-close.ts). */
  closedReason?: string;
}

export function serializeEntry(entry: LogEntry): SerializedFrame {
  if (entry.type === 'output') {
    // The JSON form (base64 of every byte) is made on first use only: most sessions at full
    // speed have binary readers only, and it cost more than the PW1O frame itself.
    let json: string | undefined;
    let jsonBytes: Uint8Array | undefined;
    const binary = encodeOutputFrame(entry.seq, entry.stream, entry.data);
    return {
      seq: entry.seq,
      get json(): string {
        json ??= `{"op":"pty.session_frame","id":"${entry.id}","ts":"${rfc3339(entry.ts)}","sequence":${entry.seq},"payload":{"kind":"Output","stream":"${entry.stream}","data":"${encodeBase64(entry.data)}"}}`;
        return json;
      },
      get jsonBytes(): Uint8Array {
        jsonBytes ??= Buffer.from(this.json, 'utf8');
        return jsonBytes;
      },
      binary,
      bytes: entry.data.length,
    };
  }
  const ts = rfc3339(entry.ts);
  const frame: Record<string, unknown> = { op: entry.op, id: entry.id, ts, sequence: entry.seq };
  if (entry.serviceParameters) frame['service_parameters'] = entry.serviceParameters;
  frame['payload'] = entry.payload;
  const closed = entry.op === 'pty.session_frame' && entry.payload['kind'] === 'Closed';
  const closedReason = closed ? String(entry.payload['reason']) : undefined;
  return new JsonFrame(entry.seq, entry.taskId, JSON.stringify(frame), closedReason);
}

/**
 * A non-Output entry: JSON text in both formats. A class, not an object literal: a literal with
 * accessors and a spread field went to dictionary mode (about 350 bytes a frame with its
 * closures), and a hub keeps hundreds of these (RecentFrames).
 */
class JsonFrame implements SerializedFrame {
  readonly bytes: number;
  /**
   * Kept as text until the first socket needs the bytes, then as the bytes only: an attach
   * storm's MembershipChanged frames, each with the whole member list, cost twice their size
   * when both forms stayed.
   */
  private text: string | undefined;
  private utf8: Buffer | undefined = undefined;

  constructor(
    readonly seq: number,
    readonly taskId: string | undefined,
    text: string,
    readonly closedReason: string | undefined,
  ) {
    this.text = text;
    this.bytes = text.length;
  }

  get json(): string {
    return this.text ?? (this.utf8 as Buffer).toString('utf8');
  }

  get jsonBytes(): Uint8Array {
    if (!this.utf8) {
      this.utf8 = Buffer.from(this.text as string, 'utf8');
      this.text = undefined;
    }
    return this.utf8;
  }
}
