import { encodeBase64, encodeOutputFrame, rfc3339 } from '@pty-ws/protocol';
import type { LogEntry } from '@pty-ws/ports';

/** A log entry serialized once per wire format, shared by every socket that receives it. */
export interface SerializedFrame {
  seq: number;
  taskId?: string;
  json: string;
  /** PW1O bytes for Output entries; other entries travel as JSON text in both formats. */
  binary?: Uint8Array;
  bytes: number;
}

export function serializeEntry(entry: LogEntry): SerializedFrame {
  const ts = rfc3339(entry.ts);
  if (entry.type === 'output') {
    const json = `{"op":"pty.session_frame","id":"${entry.id}","ts":"${ts}","sequence":${entry.seq},"payload":{"kind":"Output","stream":"${entry.stream}","data":"${encodeBase64(entry.data)}"}}`;
    const binary = encodeOutputFrame(entry.seq, entry.stream, entry.data);
    return { seq: entry.seq, json, binary, bytes: entry.data.length };
  }
  const frame: Record<string, unknown> = { op: entry.op, id: entry.id, ts, sequence: entry.seq };
  if (entry.serviceParameters) frame['service_parameters'] = entry.serviceParameters;
  frame['payload'] = entry.payload;
  const json = JSON.stringify(frame);
  return entry.taskId !== undefined
    ? { seq: entry.seq, taskId: entry.taskId, json, bytes: json.length }
    : { seq: entry.seq, json, bytes: json.length };
}
