import type { LogEntry } from '@pty-ws/ports';
import type { SourcedEntry } from '../src/transcript/source';
import { SearchableText } from '../src/transcript/text-search';
import { streamSearch, type SearchBudget } from '../src/transcript/transcript-search';

const out = (seq: number, text: string): LogEntry => ({
  type: 'output',
  seq,
  id: `id-${seq}`,
  ts: 0,
  stream: 'stdout',
  data: new TextEncoder().encode(text),
});

/** The frames as the log and archive would give them. */
function source(entries: LogEntry[]) {
  return {
    read: (afterSeq: number, toSeq: number, limit: number): Promise<SourcedEntry[]> =>
      Promise.resolve(
        entries
          .filter((e) => e.seq > afterSeq && e.seq <= toSeq)
          .slice(0, limit)
          .map((entry) => ({ entry, source: 'archive' as const })),
      ),
  };
}

const UNBOUNDED: SearchBudget = { maxScanBytes: Infinity, maxMs: Infinity, maxAnswerBytes: Infinity };

async function search(entries: LogEntry[], q: string, budget: SearchBudget, from = 1, limit = 1000) {
  const range = { from, to: entries.at(-1)!.seq };
  return streamSearch(
    source(entries),
    { q, limit, format: 'json' },
    range,
    () => true,
    (se) => ({ sequence: se.entry.seq }),
    budget,
  );
}

/** Every match of `q`, paging with the answers' resume point as a client does. */
async function pagedMatches(entries: LogEntry[], q: string, budget: SearchBudget, limit = 1000) {
  const found: unknown[] = [];
  let from = 1;
  for (let pages = 0; pages < 10_000; pages++) {
    const r = await search(entries, q, budget, from, limit);
    found.push(...r.matches.map((m) => [m['start_seq'], m['end_seq'], m['text']]));
    if (!r.truncated) return { found, pages: pages + 1 };
    from = r.scannedTo + 1;
  }
  throw new Error('paging did not end');
}

describe('streamed transcript search', () => {
  // 400 frames of 7 characters; "needle" is split across frames in different places.
  const entries = Array.from({ length: 400 }, (_, i) =>
    out(i + 1, i % 3 === 0 ? 'xxneedl' : i % 3 === 1 ? 'e yy ne' : 'edle zz'),
  );

  it('finds every match once when the budget cuts the scan into many requests', async () => {
    const whole = await pagedMatches(entries, 'needle', UNBOUNDED);
    expect(whole.pages).toBe(1);
    expect(whole.found.length).toBeGreaterThan(200);
    const paged = await pagedMatches(entries, 'needle', { ...UNBOUNDED, maxScanBytes: 50 });
    expect(paged.pages).toBeGreaterThan(5);
    expect(paged.found).toEqual(whole.found);
  });

  it('a full page of matches says where the next one resumes', async () => {
    const first = await search(entries, 'needle', UNBOUNDED, 1, 5);
    expect(first.matches).toHaveLength(5);
    expect(first.truncated).toBe(true);
    const next = await search(entries, 'needle', UNBOUNDED, first.scannedTo + 1, 5);
    expect(next.matches[0]!['start_seq']).toBeGreaterThan(first.matches[4]!['end_seq'] as number);
  });

  it('returns the frames a match spans, with context around it', async () => {
    const r = await search([out(1, 'aaa '), out(2, 'find'), out(3, '-me bbb')], 'find-me', UNBOUNDED);
    expect(r.matches).toEqual([{ start_seq: 2, end_seq: 3, text: 'find-me', before: 'aaa ', after: ' bbb' }]);
    expect(r.frames).toEqual([{ sequence: 2 }, { sequence: 3 }]);
  });
});

describe('SearchableText window', () => {
  it('keeps only the tail, with the frames of what it keeps', () => {
    const t = new SearchableText();
    t.push(1, new TextEncoder().encode('hello '));
    t.push(2, new TextEncoder().encode('\x1b[1mwörld 😀'));
    expect(t.length).toBe('hello wörld 😀'.length);
    expect(t.keepTail(8)).toBe(6);
    expect(t.seqAt(0)).toBe(2);
    expect(t.find('ld 😀', 10)).toMatchObject([{ startSeq: 2, endSeq: 2, before: 'wör', text: 'ld 😀', after: '' }]);
  });
});
