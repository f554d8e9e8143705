/** Turning raw WebSocket message data into envelopes and bytes, defensively: the peer is remote. */
import type { Envelope } from '@pty-ws/protocol';

export type ServerFrame = Envelope<unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one text frame; returns undefined unless it is a JSON object with a string `op`. */
export function parseServerFrame(text: string): ServerFrame | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value['op'] !== 'string') return undefined;
  const frame: ServerFrame = {
    op: value['op'],
    id: typeof value['id'] === 'string' ? value['id'] : '',
    ts: typeof value['ts'] === 'string' ? value['ts'] : '',
    payload: value['payload'] ?? null,
  };
  const seq = value['sequence'];
  if (typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0) frame.sequence = seq;
  if (isRecord(value['service_parameters'])) frame.service_parameters = value['service_parameters'];
  return frame;
}

/** Binary message data as bytes: ArrayBuffer (binaryType 'arraybuffer') or any ArrayBuffer view. */
export function toBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

export function payloadRecord(frame: ServerFrame): Record<string, unknown> {
  return isRecord(frame.payload) ? frame.payload : {};
}
