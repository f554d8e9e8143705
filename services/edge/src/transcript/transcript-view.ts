import { TextDecoder } from 'node:util';
import type { SessionRecord } from '@pty-ws/ports';
import { AsciicastWriter, sizeSetBy } from './asciicast';
import type { TranscriptQuery } from './query';
import { SearchableText } from './text-search';
import type { SourcedEntry, TranscriptSource } from './source';

/** Entries read per round trip to the log or archive. */
const PAGE = 2000;
/** A search reads at most this many frames per request; the response then says where to go on. */
const MAX_SEARCH_FRAMES = 200_000;

export interface TranscriptRange {
  /** First sequence this response covers; `to_seq < from_seq` when there is nothing. */
  from: number;
  to: number;
}

function keep(q: TranscriptQuery, se: SourcedEntry): boolean {
  if (!q.streams) return true;
  return se.entry.type === 'output' && q.streams.has(se.entry.stream);
}

/** One frame in JSON: Output bytes as base64 plus their text; events with their payload. */
function frameJson(se: SourcedEntry, decoder: TextDecoder): Record<string, unknown> {
  const e = se.entry;
  const base = { sequence: e.seq, ts: new Date(e.ts).toISOString(), source: se.source };
  if (e.type === 'output') {
    return {
      ...base,
      kind: 'Output',
      stream: e.stream,
      data: Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength).toString('base64'),
      text: decoder.decode(e.data, { stream: true }),
    };
  }
  const kind = e.payload['kind'];
  return {
    ...base,
    op: e.op,
    kind: typeof kind === 'string' ? kind : e.op,
    payload: e.payload,
    ...(e.taskId !== undefined ? { task_id: e.taskId } : {}),
  };
}

/** Frames of the range that pass the stream filter, at most `limit`. */
export async function listFrames(
  source: TranscriptSource,
  q: TranscriptQuery,
  range: TranscriptRange,
): Promise<{ frames: Record<string, unknown>[]; scannedTo: number; truncated: boolean }> {
  const decoder = new TextDecoder('utf-8');
  const frames: Record<string, unknown>[] = [];
  let after = range.from - 1;
  while (after < range.to && frames.length < q.limit) {
    const page = await source.read(after, range.to, q.streams ? PAGE : q.limit - frames.length);
    if (page.length === 0) break;
    for (const se of page) {
      after = se.entry.seq;
      if (keep(q, se)) frames.push(frameJson(se, decoder));
      if (frames.length >= q.limit) break;
    }
  }
  return { frames, scannedTo: after, truncated: after < range.to };
}

/** Matches of `q.q` in the decoded output of the range, with the frames they span. */
export async function searchFrames(
  source: TranscriptSource,
  q: TranscriptQuery & { q: string },
  range: TranscriptRange,
): Promise<{
  matches: Record<string, unknown>[];
  frames: Record<string, unknown>[];
  scannedTo: number;
  truncated: boolean;
}> {
  const text = new SearchableText();
  const byseq = new Map<number, SourcedEntry>();
  let after = range.from - 1;
  let scanned = 0;
  while (after < range.to && scanned < MAX_SEARCH_FRAMES) {
    const page = await source.read(after, range.to, Math.min(PAGE, MAX_SEARCH_FRAMES - scanned));
    if (page.length === 0) break;
    for (const se of page) {
      after = se.entry.seq;
      scanned++;
      if (se.entry.type !== 'output' || !keep(q, se)) continue;
      text.push(se.entry.seq, se.entry.data);
      byseq.set(se.entry.seq, se);
    }
  }
  const found = text.find(q.q, q.limit);
  const spanned = new Set<number>();
  for (const m of found) for (let s = m.startSeq; s <= m.endSeq; s++) if (byseq.has(s)) spanned.add(s);
  const decoder = new TextDecoder('utf-8');
  const frames = [...spanned].sort((a, b) => a - b).map((s) => frameJson(byseq.get(s)!, decoder));
  const matches = found.map((m) => ({
    start_seq: m.startSeq,
    end_seq: m.endSeq,
    text: m.text,
    before: m.before,
    after: m.after,
  }));
  const last = found.at(-1);
  // A full page of matches resumes after the frame the last one ended in.
  if (found.length >= q.limit && last)
    return { matches, frames, scannedTo: last.endSeq, truncated: last.endSeq < range.to };
  return { matches, frames, scannedTo: after, truncated: after < range.to };
}

/** The terminal size in effect just before `from`: the last Resize before it, else the creation size. */
async function sizeBefore(
  source: TranscriptSource,
  record: SessionRecord,
  from: number,
): Promise<{ cols: number; rows: number }> {
  let size = record.initialSize ?? record.spec.size;
  let after = 0;
  while (after < from - 1) {
    const page = await source.read(after, from - 1, PAGE);
    if (page.length === 0) break;
    for (const se of page) {
      after = se.entry.seq;
      size = sizeSetBy(se.entry) ?? size;
    }
  }
  return size;
}

/** The range as an asciicast v2 recording. */
export async function exportAsciicast(
  source: TranscriptSource,
  record: SessionRecord,
  q: TranscriptQuery,
  range: TranscriptRange,
): Promise<string> {
  const size = await sizeBefore(source, record, range.from);
  const first = (await source.read(range.from - 1, range.to, 1))[0];
  const writer = new AsciicastWriter({
    width: size.cols,
    height: size.rows,
    timestamp: (first?.entry.ts ?? record.createdAt) / 1000,
    title: `pty-ws session ${record.sessionId}`,
  });
  let after = range.from - 1;
  let exported = 0;
  while (after < range.to && exported < q.limit) {
    const page = await source.read(after, range.to, Math.min(PAGE, q.limit - exported));
    if (page.length === 0) break;
    for (const se of page) {
      after = se.entry.seq;
      exported++;
      // Resizes always go in (the player's geometry); Output only of the wanted streams.
      if (se.entry.type === 'output' && !keep(q, se)) continue;
      writer.add(se.entry);
    }
  }
  return writer.finish();
}
