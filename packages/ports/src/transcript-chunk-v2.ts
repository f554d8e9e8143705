/**
 * Transcript chunk format 2: a 4-byte header (`PWT` and the version byte 2), then brotli
 * (quality 0) of the entries in a little-endian binary framing, Output bytes raw:
 *
 *   entry  := kind:u8 (0 output, 1 event) seq:f64 ts:f64 idLen:u8 id:utf8 rest
 *   output := streamLen:u8 stream:ascii len:u32 bytes
 *   event  := len:u32 JSON {op, payload, task_id?, service_parameters?}
 *
 * Why not format 1 (gzip of JSON lines with base64): on a 50 MB stream of base64 text gzip -1 of
 * those lines cost ~64 ms of CPU per MB of output, more than the rest of the server together, and
 * the encoder fell behind the PTY. Here framing is a copy and brotli -0 costs ~6 ms per MB of
 * incompressible text (~2-3 on typical terminal output), packing as tight as gzip -1 of the raw
 * bytes did. Framing runs on the caller's thread, brotli in the compressor thread (chunk-encoder.ts).
 *
 * A chunk that brotli would shrink by less than 30 % (a sample of it packs to more than
 * STORED_RATIO: random or already compressed bytes, a `cat` of a tarball, base64 of either, which
 * packs to ~76 %) is stored instead: header `PWT` and 3, then the same framing uncompressed. Brotli
 * saves little there and still costs 2-5 ms of CPU per MB, on a machine where the PTY and the
 * readers compete for it: storing base64 of random bytes cut the single-node server's CPU per MB
 * of such a stream from ~68 % to ~58 % of a core at the same rate, and lifted the cluster's
 * 100-reader fan-out by ~7 %. Text (10-50 %) is compressed.
 */
import { brotliCompress, brotliCompressSync, brotliDecompress, constants, type BrotliOptions } from 'node:zlib';
import { promisify } from 'node:util';
import type { OutputStream } from '@pty-ws/protocol';
import { compressOffThread } from './chunk-encoder';
import type { LogEntry } from './frame-log';

const MAGIC = Buffer.from([0x50, 0x57, 0x54, 0x02]); // "PWT" + version 2
const STORED_MAGIC = Buffer.from([0x50, 0x57, 0x54, 0x03]); // the same framing, not compressed
/** A sample that brotli packs to more than this fraction of its size: the chunk is stored. */
const STORED_RATIO = 0.7;
/** Bytes sampled at the start and in the middle of a chunk; smaller chunks are always compressed. */
const SAMPLE_BYTES = 32 * 1024;
const OUTPUT = 0;
const EVENT = 1;

const brotliAsync = promisify<Buffer, BrotliOptions, Buffer>(brotliCompress);
const unbrotliAsync = promisify<Buffer, BrotliOptions, Buffer>(brotliDecompress);
/** Output buffers as large as a whole chunk: one step per chunk, not one per 16 KiB (the default). */
const CHUNK_SIZE = 512 * 1024;

function brotliOptions(size: number): BrotliOptions {
  return {
    chunkSize: CHUNK_SIZE,
    params: { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_SIZE_HINT]: size },
  };
}

export function isV2Chunk(data: Uint8Array): boolean {
  return MAGIC.every((b, i) => data[i] === b) || STORED_MAGIC.every((b, i) => data[i] === b);
}

function isStored(data: Uint8Array): boolean {
  return data[MAGIC.length - 1] === STORED_MAGIC[MAGIC.length - 1];
}

/**
 * The stored chunk of `framed` when brotli would barely shrink it (judged on two samples), else
 * undefined: then it is compressed.
 */
function storedChunk(framed: Uint8Array): Buffer | undefined {
  if (framed.byteLength < 4 * SAMPLE_BYTES) return undefined;
  const middle = Math.floor(framed.byteLength / 2);
  const sample = Buffer.concat([framed.subarray(0, SAMPLE_BYTES), framed.subarray(middle, middle + SAMPLE_BYTES)]);
  const packed = brotliCompressSync(sample, brotliOptions(sample.length)).length;
  return packed > sample.length * STORED_RATIO ? Buffer.concat([STORED_MAGIC, framed]) : undefined;
}

interface EventBody {
  op: string;
  payload: Record<string, unknown>;
  task_id?: string;
  service_parameters?: Record<string, unknown>;
}

/**
 * The framed entries, uncompressed and without the header, in one buffer that owns its
 * ArrayBuffer (so it can be transferred to the compressor thread).
 */
export function frameEntries(entries: readonly LogEntry[]): Buffer {
  // Sizes first so the whole chunk is one allocation and each Output's bytes one copy.
  const idLengths = entries.map((e) => Buffer.byteLength(e.id, 'utf8'));
  const events = entries.map((e) => (e.type === 'event' ? JSON.stringify(eventBody(e)) : ''));
  let size = 0;
  entries.forEach((e, i) => {
    const idLength = idLengths[i]!;
    if (idLength > 255) throw new RangeError(`frame id longer than 255 bytes: ${e.id}`);
    size += 1 + 8 + 8 + 1 + idLength + 4;
    size += e.type === 'output' ? 1 + e.stream.length + e.data.byteLength : Buffer.byteLength(events[i]!, 'utf8');
  });
  const buf = Buffer.allocUnsafeSlow(size);
  let at = 0;
  entries.forEach((e, i) => {
    buf[at++] = e.type === 'output' ? OUTPUT : EVENT;
    at = buf.writeDoubleLE(e.seq, at);
    at = buf.writeDoubleLE(e.ts, at);
    buf[at++] = idLengths[i]!;
    at += buf.write(e.id, at, 'utf8');
    if (e.type === 'output') {
      buf[at++] = e.stream.length;
      at += buf.write(e.stream, at, 'latin1');
      at = buf.writeUInt32LE(e.data.byteLength, at);
      buf.set(e.data, at);
      at += e.data.byteLength;
    } else {
      const length = buf.write(events[i]!, at + 4, 'utf8');
      at = buf.writeUInt32LE(length, at) + length;
    }
  });
  return buf;
}

function eventBody(e: Extract<LogEntry, { type: 'event' }>): EventBody {
  return {
    op: e.op,
    payload: e.payload,
    ...(e.taskId !== undefined ? { task_id: e.taskId } : {}),
    ...(e.serviceParameters !== undefined ? { service_parameters: e.serviceParameters } : {}),
  };
}

function unframeEntries(body: Buffer): LogEntry[] {
  const out: LogEntry[] = [];
  let at = 0;
  const need = (n: number): void => {
    if (at + n > body.length) throw new RangeError('truncated transcript chunk');
  };
  while (at < body.length) {
    need(18);
    const kind = body[at++];
    const seq = body.readDoubleLE(at);
    const ts = body.readDoubleLE(at + 8);
    at += 16;
    const idLen = body[at++]!;
    need(idLen + 1);
    const id = body.toString('utf8', at, at + idLen);
    at += idLen;
    if (kind === OUTPUT) {
      const streamLen = body[at++]!;
      need(streamLen + 4);
      const stream = body.toString('latin1', at, at + streamLen) as OutputStream;
      at += streamLen;
      const len = body.readUInt32LE(at);
      at += 4;
      need(len);
      // A copy of its own: a view would keep the whole decompressed chunk alive.
      out.push({ type: 'output', seq, id, ts, stream, data: new Uint8Array(body.subarray(at, at + len)) });
      at += len;
    } else if (kind === EVENT) {
      need(4);
      const len = body.readUInt32LE(at);
      at += 4;
      need(len);
      const e = JSON.parse(body.toString('utf8', at, at + len)) as EventBody;
      at += len;
      out.push({
        type: 'event',
        seq,
        id,
        ts,
        op: e.op,
        payload: e.payload,
        ...(e.task_id !== undefined ? { taskId: e.task_id } : {}),
        ...(e.service_parameters !== undefined ? { serviceParameters: e.service_parameters } : {}),
      });
    } else throw new RangeError(`unknown transcript entry kind ${String(kind)}`);
  }
  return out;
}

/** The chunk of a framing: the header, then brotli of it, or the framing itself (what the compressor thread runs). */
export function compressFramedSync(framed: Uint8Array): Buffer {
  return storedChunk(framed) ?? Buffer.concat([MAGIC, brotliCompressSync(framed, brotliOptions(framed.byteLength))]);
}

/** Framed on the caller's thread, compressed in the compressor thread (else on the libuv pool). */
export async function encodeV2Chunk(entries: readonly LogEntry[]): Promise<Buffer> {
  const framed = frameEntries(entries);
  const off = compressOffThread(framed);
  if (off) return off;
  return storedChunk(framed) ?? Buffer.concat([MAGIC, await brotliAsync(framed, brotliOptions(framed.length))]);
}

export async function decodeV2Chunk(data: Uint8Array): Promise<LogEntry[]> {
  const body = Buffer.from(data.buffer, data.byteOffset + MAGIC.length, data.byteLength - MAGIC.length);
  return unframeEntries(isStored(data) ? body : await unbrotliAsync(body, { chunkSize: CHUNK_SIZE }));
}
