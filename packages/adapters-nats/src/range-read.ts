import type { LogEntry } from '@pty-ws/ports';
import type { DirectQuery, Gets } from './direct-gets';
import { lowerBound, upperBound, type Located } from './subject-reader';

/**
 * The entries `start.seq .. to` of one session's subject by direct gets only (no consumer), by
 * sequence (contiguous() takes them in order). `start` is the located first entry, `last` the
 * subject's newest message, with `seqOf(last) >= to`; `known` gives those already at hand.
 *
 * The subject holds consecutive sequences, so each missing run of entries `k1..k2` lies between
 * stream positions known from its neighbours (lowerBound/upperBound). A round sends one
 * `next_by_subj` get per missing entry, spread evenly over that span, all at once: where the
 * session wrote alone (the span is exactly the run) every get lands on its entry; where other
 * sessions wrote in between, each get returns the first entry at or after its position, and the
 * next round narrows what is still missing. Every round finds at least the first entry (or the
 * mark) after each run's known predecessor, so it ends; a round that finds nothing new means a
 * concurrent trim or purge took the rest (only what is contiguous from `start` is served: the
 * caller's next read sees the trim).
 */
export async function readRange(
  gets: Gets,
  subject: string,
  start: Located & { decoded: { kind: 'entry' } },
  last: Located,
  to: number,
  known: (seq: number) => Located | undefined = () => undefined,
): Promise<Map<number, Located>> {
  const first = start.decoded.entry.seq;
  const found = new Map<number, Located>([[first, start]]);
  if (last.decoded.kind === 'entry') found.set(last.decoded.entry.seq, last);
  for (let seq = first + 1; seq <= to; seq++) {
    const m = known(seq);
    if (m) found.set(seq, m);
  }
  const marks: Located[] = last.decoded.kind === 'mark' ? [last] : [];
  const seenMarks = new Set(marks.map((m) => m.streamSeq));
  for (;;) {
    const queries: DirectQuery[] = [];
    for (const [k1, k2] of missingRuns(found, first, to)) {
      const [lo, hi] = span(found, marks, last, k1, k2);
      const count = k2 - k1 + 1;
      const width = hi - lo + 1;
      if (width < count) continue; // fewer positions than entries: removed meanwhile
      let prev = -1;
      for (let j = 0; j < count; j++) {
        const seq = lo + Math.floor((j * width) / count);
        if (seq !== prev) queries.push({ seq, next_by_subj: subject });
        prev = seq;
      }
    }
    if (queries.length === 0) break;
    let progress = false;
    for (const m of await gets.getMany(queries)) {
      if (!m) continue;
      if (m.decoded.kind === 'mark') {
        if (!seenMarks.has(m.streamSeq)) {
          seenMarks.add(m.streamSeq);
          marks.push(m);
          progress = true;
        }
        continue;
      }
      const seq = m.decoded.entry.seq;
      if (seq > first && seq <= to && !found.has(seq)) {
        found.set(seq, m);
        progress = true;
      }
    }
    if (!progress) break;
  }
  return found;
}

/** The entries `first..to` of what readRange found, up to the first one missing. */
export function contiguous(found: ReadonlyMap<number, Located>, first: number, to: number): LogEntry[] {
  const out: LogEntry[] = [];
  for (let seq = first; seq <= to; seq++) {
    const m = found.get(seq);
    if (!m || m.decoded.kind !== 'entry') break;
    out.push(m.decoded.entry);
  }
  return out;
}

/** Maximal runs `[k1, k2]` of sequences in `(first, to]` not found yet. */
function missingRuns(found: ReadonlyMap<number, Located>, first: number, to: number): [number, number][] {
  const runs: [number, number][] = [];
  for (let k = first + 1; k <= to; k++) {
    if (found.has(k)) continue;
    let end = k;
    while (end < to && !found.has(end + 1)) end++;
    runs.push([k, end]);
    k = end;
  }
  return runs;
}

/**
 * The stream positions entries `k1..k2` can occupy: after the known entry `k1 - 1` (and after any
 * mark that precedes them), before the next known entry or `last` (and before any mark after them).
 */
function span(
  found: ReadonlyMap<number, Located>,
  marks: readonly Located[],
  last: Located,
  k1: number,
  k2: number,
): [number, number] {
  const before = found.get(k1 - 1) as Located;
  let lo = lowerBound(before, k1);
  let hi = upperBound(found.get(k2 + 1) ?? last, k2);
  for (const mark of marks) {
    if (mark.decoded.kind !== 'mark') continue;
    // A mark of m sits after entry m and before entry m + 1.
    if (mark.decoded.seq < k1 && mark.streamSeq > before.streamSeq) lo = Math.max(lo, lowerBound(mark, k1));
    if (mark.decoded.seq >= k2) hi = Math.min(hi, upperBound(mark, k2));
  }
  return [lo, hi];
}
