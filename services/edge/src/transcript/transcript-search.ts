import { PageSize, yieldToLoop } from './page-size';
import type { TranscriptQuery } from './query';
import { SearchableText } from './text-search';
import type { SourcedEntry, TranscriptSource } from './source';
import type { TranscriptRange } from './transcript-view';

/** Bounds of one search request; past any of them it answers what it found and where to go on. */
export interface SearchBudget {
  /** Output bytes read from the log and archive. */
  maxScanBytes: number;
  /** Wall-clock time spent. */
  maxMs: number;
  /** Bytes of frames (their output) the answer carries. */
  maxAnswerBytes: number;
}

export const DEFAULT_SEARCH_BUDGET: SearchBudget = {
  maxScanBytes: 32 * 1024 * 1024,
  maxMs: 2000,
  maxAnswerBytes: 4 * 1024 * 1024,
};

/** Characters of context around a match (SearchableText shows as many). */
const CONTEXT = 40;

export interface SearchResult {
  matches: Record<string, unknown>[];
  /** The frames the matches span, oldest first, as `frameJson` renders them. */
  frames: Record<string, unknown>[];
  scannedTo: number;
  truncated: boolean;
}

/**
 * Matches of `q.q` in the decoded output of the range, streamed: pages of frames are added to a
 * SearchableText that keeps only the tail a match or its context can still need, and only the
 * frames from that tail's first one on are held, so memory is bounded by a page plus the answer,
 * not by the transcript. A request stops at `limit` matches or at its budget; the answer then
 * says where the next one resumes (`scannedTo + 1`).
 */
export async function streamSearch(
  source: Pick<TranscriptSource, 'read'>,
  q: TranscriptQuery & { q: string },
  range: TranscriptRange,
  keep: (se: SourcedEntry) => boolean,
  render: (se: SourcedEntry) => Record<string, unknown>,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
  now: () => number = Date.now,
): Promise<SearchResult> {
  const started = now();
  const text = new SearchableText();
  /** Output frames from the retained text's first frame on (a match's frames come from here). */
  const held = new Map<number, SourcedEntry>();
  const rendered = new Map<number, Record<string, unknown>>();
  const matches: Record<string, unknown>[] = [];
  let answerBytes = 0;
  let lastMatchEndSeq = 0;
  /** Where the next search starts in `text`: past the last match, or where one can still begin. */
  let pos = 0;
  let full = false;
  let after = range.from - 1;
  let scanned = 0;
  let exhausted = false;
  const pageSize = new PageSize();

  const harvest = (final: boolean): void => {
    let deferred = false;
    for (const m of text.find(q.q, q.limit - matches.length, pos)) {
      // A match near the end waits for its context, unless nothing more comes.
      if (!final && m.endChar + CONTEXT > text.length) {
        deferred = true;
        break;
      }
      for (const [seq, se] of held) {
        if (seq > m.endSeq) break;
        if (seq < m.startSeq || rendered.has(seq)) continue;
        const frame = render(se);
        rendered.set(seq, frame);
        answerBytes += se.entry.type === 'output' ? se.entry.data.byteLength : 0;
      }
      matches.push({ start_seq: m.startSeq, end_seq: m.endSeq, text: m.text, before: m.before, after: m.after });
      pos = m.endChar;
      lastMatchEndSeq = m.endSeq;
      if (matches.length >= q.limit || answerBytes >= budget.maxAnswerBytes) {
        full = true;
        return;
      }
    }
    if (!deferred) pos = Math.max(pos, text.length - (q.q.length - 1));
  };

  while (after < range.to && scanned < budget.maxScanBytes && now() - started < budget.maxMs) {
    const page = await source.read(after, range.to, pageSize.next);
    if (page.length === 0) {
      exhausted = true;
      break;
    }
    for (const se of page) {
      after = se.entry.seq;
      if (se.entry.type !== 'output' || !keep(se)) continue;
      text.push(se.entry.seq, se.entry.data);
      held.set(se.entry.seq, se);
      scanned += se.entry.data.byteLength;
      pageSize.saw(se.entry.data.byteLength);
    }
    pageSize.adjust();
    harvest(false);
    if (full) break;
    // Keep what the next match can need: its context before `pos`, and the frames from there on.
    pos -= text.keepTail(text.length - Math.max(0, pos - CONTEXT));
    const firstHeld = text.length > 0 ? text.seqAt(0) : after + 1;
    for (const seq of held.keys()) {
      if (seq >= firstHeld) break;
      held.delete(seq);
    }
    await yieldToLoop();
  }
  if (!full) harvest(true);

  const frames = [...rendered.values()];
  const result = { matches, frames };
  // Everything searched, nothing left that could still start a match: the range (or its read part) is done.
  if (!full && (after >= range.to || exhausted)) return { ...result, scannedTo: after, truncated: false };
  let resume = pos < text.length ? text.seqAt(pos) : after + 1;
  // A match ended in that frame: resuming there would report it again.
  if (resume === lastMatchEndSeq) resume++;
  // Always move on, even if one frame held more than the budget.
  if (resume <= range.from) resume = after + 1;
  return { ...result, scannedTo: resume - 1, truncated: resume <= range.to };
}
