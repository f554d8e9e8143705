import { TextDecoder } from 'node:util';
import type { SessionRecord } from '@pty-ws/ports';
import { AsciicastWriter, sizeSetBy, type PartSink } from './asciicast';
import { PageSize, yieldToLoop } from './page-size';
import type { TranscriptQuery } from './query';
import { streamSearch, type SearchBudget, type SearchResult } from './transcript-search';
import type { SourcedEntry, TranscriptSource } from './source';

/** Entries read per round trip to the log or archive. */
const PAGE = 2000;
/**
 * Output a page of frames carries at most (past it the page ends, `truncated`): frames run up to
 * PTYWS_OUTPUT_FRAME_BYTES, and 10 000 of them as base64 plus text would be gigabytes of JSON.
 */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

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

/** Frames of the range that pass the stream filter, at most `limit` and about MAX_PAGE_BYTES of output. */
export async function listFrames(
  source: TranscriptSource,
  q: TranscriptQuery,
  range: TranscriptRange,
): Promise<{ frames: Record<string, unknown>[]; scannedTo: number; truncated: boolean }> {
  const decoder = new TextDecoder('utf-8');
  const frames: Record<string, unknown>[] = [];
  let after = range.from - 1;
  let bytes = 0;
  const full = () => frames.length >= q.limit || bytes >= MAX_PAGE_BYTES;
  while (after < range.to && !full()) {
    const page = await source.read(after, range.to, Math.min(PAGE, q.streams ? PAGE : q.limit - frames.length));
    if (page.length === 0) break;
    for (const se of page) {
      after = se.entry.seq;
      if (keep(q, se)) {
        frames.push(frameJson(se, decoder));
        bytes += se.entry.type === 'output' ? se.entry.data.byteLength : 0;
      }
      if (full()) break;
    }
  }
  return { frames, scannedTo: after, truncated: after < range.to };
}

/** Matches of `q.q` in the decoded output of the range, with the frames they span (transcript-search.ts). */
export function searchFrames(
  source: TranscriptSource,
  q: TranscriptQuery & { q: string },
  range: TranscriptRange,
  budget?: SearchBudget,
): Promise<SearchResult> {
  const decoder = new TextDecoder('utf-8');
  return streamSearch(
    source,
    q,
    range,
    (se) => keep(q, se),
    (se) => frameJson(se, decoder),
    budget,
  );
}

/** The terminal size in effect just before `from`: the last Resize before it, else the creation size. */
async function sizeBefore(
  source: TranscriptSource,
  record: SessionRecord,
  from: number,
): Promise<{ cols: number; rows: number }> {
  let size = record.initialSize ?? record.spec.size;
  let after = 0;
  const pageSize = new PageSize();
  while (after < from - 1) {
    const page = await source.read(after, from - 1, pageSize.next);
    if (page.length === 0) break;
    for (const se of page) {
      after = se.entry.seq;
      size = sizeSetBy(se.entry) ?? size;
      if (se.entry.type === 'output') pageSize.saw(se.entry.data.byteLength);
    }
    pageSize.adjust();
    await yieldToLoop();
  }
  return size;
}

/** Frames of an export's first page: at most 1 MiB of output at the default frame size. */
const EXPORT_FIRST_PAGE_FRAMES = 4;

/**
 * The range as an asciicast v2 recording, handed to `sink` in parts of PART_BYTES (asciicast.ts)
 * as it is made, so memory holds the page of frames read (about PageSize's bytes of output) and
 * one part whatever the range. The sink's promise is the backpressure: nothing is read ahead of
 * what it took. The loop also yields between pages. What is read before the first part (the
 * starting size, the first frame's time) may throw; a later failure throws too, after some parts
 * went out.
 */
export async function exportAsciicast(
  source: TranscriptSource,
  record: SessionRecord,
  q: TranscriptQuery,
  range: TranscriptRange,
  sink: PartSink,
): Promise<void> {
  const size = await sizeBefore(source, record, range.from);
  const first = (await source.read(range.from - 1, range.to, 1))[0];
  const writer = new AsciicastWriter(
    {
      width: size.cols,
      height: size.rows,
      timestamp: (first?.entry.ts ?? record.createdAt) / 1000,
      title: `pty-ws session ${record.sessionId}`,
    },
    sink,
  );
  let after = range.from - 1;
  let exported = 0;
  const pageSize = new PageSize(EXPORT_FIRST_PAGE_FRAMES);
  while (after < range.to && exported < q.limit) {
    const page = await source.read(after, range.to, Math.min(pageSize.next, q.limit - exported));
    if (page.length === 0) break;
    for (const se of page) {
      after = se.entry.seq;
      exported++;
      if (se.entry.type === 'output') pageSize.saw(se.entry.data.byteLength);
      // Resizes always go in (the player's geometry); Output only of the wanted streams.
      if (se.entry.type === 'output' && !keep(q, se)) continue;
      if (!(await writer.add(se.entry))) return;
    }
    pageSize.adjust();
    await yieldToLoop();
  }
  await writer.finish();
}
