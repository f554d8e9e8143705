import type { LogEntry } from './frame-log';
import { decodeV1Chunk, isV1Chunk } from './transcript-chunk-v1';
import { decodeV2Chunk, encodeV2Chunk, isV2Chunk } from './transcript-chunk-v2';

/** A run of entries as one archive chunk: the range it covers and its encoded body. */
export interface TranscriptChunk {
  firstSeq: number;
  lastSeq: number;
  firstTs: number;
  lastTs: number;
  frames: number;
  data: Buffer;
}

/**
 * Encodes a non-empty run of consecutive entries in the current chunk format (2: binary framing,
 * brotli on the libuv pool; transcript-chunk-v2.ts). Part of the TranscriptArchive contract, so
 * every implementation stores chunks the same way.
 */
export async function encodeChunk(entries: readonly LogEntry[]): Promise<TranscriptChunk> {
  const first = entries[0];
  const last = entries[entries.length - 1];
  if (!first || !last) throw new RangeError('a transcript chunk needs at least one entry');
  const data = await encodeV2Chunk(entries);
  return { firstSeq: first.seq, lastSeq: last.seq, firstTs: first.ts, lastTs: last.ts, frames: entries.length, data };
}

/** Decodes a chunk of any format written so far, told apart by its first bytes. */
export function decodeChunk(data: Uint8Array): Promise<LogEntry[]> {
  if (isV2Chunk(data)) return decodeV2Chunk(data);
  if (isV1Chunk(data)) return decodeV1Chunk(data);
  return Promise.reject(new Error('unknown transcript chunk format'));
}

/**
 * What of `entries` an archive whose newest sequence is `lastSeq` accepts: repeats are dropped,
 * the rest must continue it without a gap and be consecutive. Shared so every implementation
 * refuses the same runs (with the returned error text).
 */
export function acceptedRun(
  lastSeq: number,
  entries: readonly LogEntry[],
): { run: readonly LogEntry[] } | { gap: { expected: number; got: number } } {
  const run = entries.filter((e) => e.seq > lastSeq);
  for (let i = 1; i < run.length; i++) {
    if (run[i]!.seq !== run[i - 1]!.seq + 1) return { gap: { expected: run[i - 1]!.seq + 1, got: run[i]!.seq } };
  }
  const first = run[0];
  if (first && lastSeq > 0 && first.seq !== lastSeq + 1) return { gap: { expected: lastSeq + 1, got: first.seq } };
  return { run };
}

/** Entries of decoded chunks within `afterSeq < seq <= toSeq`, at most `limit`. */
export function selectRange(
  entries: readonly LogEntry[],
  afterSeq: number,
  opts: { toSeq?: number; limit?: number },
): LogEntry[] {
  const out: LogEntry[] = [];
  for (const e of entries) {
    if (e.seq <= afterSeq) continue;
    if (opts.toSeq !== undefined && e.seq > opts.toSeq) break;
    if (opts.limit !== undefined && out.length >= opts.limit) break;
    out.push(e);
  }
  return out;
}
