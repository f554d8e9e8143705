import { gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { LogEntry } from './frame-log';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A run of entries as one archive chunk: the range it covers and its gzip body. */
export interface TranscriptChunk {
  firstSeq: number;
  lastSeq: number;
  firstTs: number;
  lastTs: number;
  frames: number;
  data: Buffer;
}

/**
 * One line per entry, the JSON/base64 replay representation (binding §4.1): Output bytes are
 * base64, events keep their payload. Part of the TranscriptArchive contract, so every
 * implementation stores chunks the same way, and `zcat` of a local archive is readable JSONL.
 */
interface ArchivedLine {
  seq: number;
  id: string;
  ts: number;
  type: 'output' | 'event';
  stream?: string;
  data?: string;
  op?: string;
  payload?: Record<string, unknown>;
  task_id?: string;
  service_parameters?: Record<string, unknown>;
}

function toLine(e: LogEntry): ArchivedLine {
  if (e.type === 'output') {
    return {
      seq: e.seq,
      id: e.id,
      ts: e.ts,
      type: 'output',
      stream: e.stream,
      data: Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength).toString('base64'),
    };
  }
  return {
    seq: e.seq,
    id: e.id,
    ts: e.ts,
    type: 'event',
    op: e.op,
    payload: e.payload,
    ...(e.taskId !== undefined ? { task_id: e.taskId } : {}),
    ...(e.serviceParameters !== undefined ? { service_parameters: e.serviceParameters } : {}),
  };
}

function fromLine(l: ArchivedLine): LogEntry {
  if (l.type === 'output') {
    return {
      type: 'output',
      seq: l.seq,
      id: l.id,
      ts: l.ts,
      stream: (l.stream ?? 'stdout') as 'stdout',
      data: new Uint8Array(Buffer.from(l.data ?? '', 'base64')),
    };
  }
  return {
    type: 'event',
    seq: l.seq,
    id: l.id,
    ts: l.ts,
    op: l.op ?? '',
    payload: l.payload ?? {},
    ...(l.task_id !== undefined ? { taskId: l.task_id } : {}),
    ...(l.service_parameters !== undefined ? { serviceParameters: l.service_parameters } : {}),
  };
}

/** Compresses a non-empty run of consecutive entries. zlib runs on the libuv pool, off the event loop. */
export async function encodeChunk(entries: readonly LogEntry[]): Promise<TranscriptChunk> {
  const first = entries[0];
  const last = entries[entries.length - 1];
  if (!first || !last) throw new RangeError('a transcript chunk needs at least one entry');
  const text = entries.map((e) => JSON.stringify(toLine(e))).join('\n') + '\n';
  return {
    firstSeq: first.seq,
    lastSeq: last.seq,
    firstTs: first.ts,
    lastTs: last.ts,
    frames: entries.length,
    data: await gzipAsync(Buffer.from(text, 'utf8')),
  };
}

export async function decodeChunk(data: Uint8Array): Promise<LogEntry[]> {
  const text = (await gunzipAsync(data)).toString('utf8');
  const out: LogEntry[] = [];
  for (const line of text.split('\n')) if (line !== '') out.push(fromLine(JSON.parse(line) as ArchivedLine));
  return out;
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
