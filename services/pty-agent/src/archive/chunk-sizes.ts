/**
 * How the transcript archiver measures entries and cuts chunks: what an entry counts for in the
 * chunk thresholds and the metrics, and an upper bound of what a chunk takes in the archive (for
 * the byte quotas). Pure functions, shared by the archiver and its quota trimming.
 */
import type { LogEntry } from '@pty-ws/ports';

/** Estimated archived size of an event (its JSON) for the byte threshold. */
const EVENT_BYTES = 256;

/** What an entry counts for in the thresholds and `ptyws_transcript_bytes_written_total`. */
export function entrySize(e: LogEntry): number {
  return e.type === 'output' ? e.data.byteLength : EVENT_BYTES;
}

/**
 * An upper bound of what a chunk takes in the archive: its payload (compression never grows
 * terminal output by more than a few bytes) plus what each frame's sequence, id and time add
 * (~30-40 bytes, measured on incompressible output) and the chunk's header.
 */
export function storedBound(entries: readonly LogEntry[]): number {
  return payloadBytes(entries) + 48 * entries.length + 64;
}

/** What `ptyws_transcript_bytes_written_total` counts of a chunk: output bytes, events estimated. */
export function payloadBytes(entries: readonly LogEntry[]): number {
  return entries.reduce((n, e) => n + entrySize(e), 0);
}

/** The longest run from `start` within the chunk thresholds (at least one entry). */
export function takeChunk(
  entries: readonly LogEntry[],
  start: number,
  chunkFrames: number,
  chunkBytes: number,
): LogEntry[] {
  let bytes = 0;
  let end = start;
  while (end < entries.length && end - start < chunkFrames) {
    bytes += entrySize(entries[end]!);
    end++;
    if (bytes >= chunkBytes) break;
  }
  return entries.slice(start, end);
}
