/**
 * The `pty-ws.v1.binary` hot-path frames (binding §3.1):
 *   PW1O: magic(4) | sequence u64 BE (8) | stream id (1) | raw bytes
 *   PW1I: magic(4) | raw bytes
 */
import type { OutputStream } from './envelope';

const MAGIC_OUTPUT = [0x50, 0x57, 0x31, 0x4f]; // "PW1O"
const MAGIC_INPUT = [0x50, 0x57, 0x31, 0x49]; // "PW1I"
export const OUTPUT_HEADER_BYTES = 13;
export const INPUT_HEADER_BYTES = 4;

/** Stream ids: the binding defines 1 for the PTY stream; 2 and 3 are this project's for stderr/log. */
export const STREAM_IDS: Readonly<Record<OutputStream, number>> = { stdout: 1, stderr: 2, log: 3 };
const STREAM_BY_ID: Readonly<Record<number, OutputStream>> = { 1: 'stdout', 2: 'stderr', 3: 'log' };

function hasMagic(frame: Uint8Array, magic: number[]): boolean {
  return frame[0] === magic[0] && frame[1] === magic[1] && frame[2] === magic[2] && frame[3] === magic[3];
}

/**
 * Output bytes with room for the PW1O header in front, so encodeOutputFrame frames them in place
 * instead of copying every byte into a new frame (one allocation and copy per frame on a stream's
 * event loop). Only views made here are framed in place; the header room is theirs alone, and
 * each view is the data of one entry, so the header written there is always the same.
 */
const framable = new WeakSet<Uint8Array>();

/** `alloc`: e.g. Node's Buffer.allocUnsafe, which skips the zero fill the bytes are copied over. */
export function allocOutputBytes(
  size: number,
  alloc: (n: number) => Uint8Array = (n) => new Uint8Array(n),
): Uint8Array {
  const data = alloc(OUTPUT_HEADER_BYTES + size).subarray(OUTPUT_HEADER_BYTES);
  framable.add(data);
  return data;
}

/** A view of the first `size` bytes of an allocOutputBytes view, framable in place as well. */
export function outputBytesPrefix(data: Uint8Array, size: number): Uint8Array {
  const prefix = data.subarray(0, size);
  if (framable.has(data)) framable.add(prefix);
  return prefix;
}

export function encodeOutputFrame(sequence: number, stream: OutputStream, data: Uint8Array): Uint8Array {
  const inPlace = framable.has(data);
  const out = inPlace
    ? new Uint8Array(data.buffer, data.byteOffset - OUTPUT_HEADER_BYTES, OUTPUT_HEADER_BYTES + data.byteLength)
    : new Uint8Array(OUTPUT_HEADER_BYTES + data.length);
  out.set(MAGIC_OUTPUT, 0);
  // u64 big-endian as two u32 halves: no BigInt and no DataView per frame (sequences stay below 2^53).
  const high = Math.floor(sequence / 0x1_0000_0000);
  const low = sequence >>> 0;
  out[4] = high >>> 24;
  out[5] = (high >>> 16) & 0xff;
  out[6] = (high >>> 8) & 0xff;
  out[7] = high & 0xff;
  out[8] = low >>> 24;
  out[9] = (low >>> 16) & 0xff;
  out[10] = (low >>> 8) & 0xff;
  out[11] = low & 0xff;
  out[12] = STREAM_IDS[stream];
  if (!inPlace) out.set(data, OUTPUT_HEADER_BYTES);
  return out;
}

export interface DecodedOutput {
  sequence: number;
  stream: OutputStream;
  data: Uint8Array;
}

export function decodeOutputFrame(frame: Uint8Array): DecodedOutput {
  if (frame.length < OUTPUT_HEADER_BYTES || !hasMagic(frame, MAGIC_OUTPUT)) {
    throw new RangeError('not a PW1O frame');
  }
  const sequence = Number(new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getBigUint64(4, false));
  const stream = STREAM_BY_ID[frame[12] ?? 0];
  if (!stream) throw new RangeError(`unknown PW1O stream id ${frame[12]}`);
  return { sequence, stream, data: frame.subarray(OUTPUT_HEADER_BYTES) };
}

export function encodeInputFrame(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(INPUT_HEADER_BYTES + data.length);
  out.set(MAGIC_INPUT, 0);
  out.set(data, INPUT_HEADER_BYTES);
  return out;
}

/** Returns the raw input bytes (a view, no copy), or null when the frame is not a PW1I frame. */
export function decodeInputFrame(frame: Uint8Array): Uint8Array | null {
  if (frame.length < INPUT_HEADER_BYTES || !hasMagic(frame, MAGIC_INPUT)) return null;
  return frame.subarray(INPUT_HEADER_BYTES);
}
