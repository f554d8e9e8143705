import { encodeBase64, encodeOutputFrame, rfc3339 } from '@pty-ws/protocol';
import type { LogEntry } from '@pty-ws/ports';

/** A log entry serialized once per wire format, shared by every socket that receives it. */
export interface SerializedFrame {
  seq: number;
  taskId?: string;
  /** The JSON text frame; for Output built on first read (then kept). */
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
  const json = JSON.stringify(frame);
  let jsonBytes: Uint8Array | undefined;
  const closed = entry.op === 'pty.session_frame' && entry.payload['kind'] === 'Closed';
  const closedReason = closed ? String(entry.payload['reason']) : undefined;
  return {
    seq: entry.seq,
    ...(entry.taskId !== undefined ? { taskId: entry.taskId } : {}),
    ...(closedReason !== undefined ? { closedReason } : {}),
    json,
    get jsonBytes(): Uint8Array {
      jsonBytes ??= Buffer.from(json, 'utf8');
      return jsonBytes;
    },
    bytes: json.length,
  };
}
