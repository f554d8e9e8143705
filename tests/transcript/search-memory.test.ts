/**
 * Transcript search (`q`) over a 100 MB transcript: the search streams over the stored frames with
 * a bounded window and a per-request budget, so the edge's resident set stays within
 * RSS_BOUND_MB of its baseline, `/healthz` keeps answering while searches run, a principal runs
 * one search at a time (429 with Retry-After for a second), and paging with `next_from_seq`
 * reaches the one match at the very end. The server runs as its own process (npm start).
 */
import { OUTPUT_BYTES, rssMb, startBigTranscript, whileWatching, type BigTranscript } from './big-transcript';

jest.setTimeout(300_000);

const RSS_BOUND_MB = 150;
/** /healthz must answer within this while a search runs (liveness, not speed: generous). */
const HEALTHZ_BOUND_MS = 3000;

interface SearchPage {
  matches: Array<{ text: string; start_seq: number }>;
  truncated: boolean;
  next_from_seq: number | null;
  to_seq: number;
}

let big: BigTranscript;
const api = (path: string, init?: RequestInit) => big.api(path, init);

beforeAll(async () => {
  big = await startBigTranscript('NEEDLE-AT-THE-END');
});
afterAll(() => big?.server.kill());

/** Pages through the whole transcript with next_from_seq; returns the matches and the pages taken. */
async function searchAll(q: string): Promise<{ matches: SearchPage['matches']; pages: number }> {
  const matches: SearchPage['matches'] = [];
  let from: number | null = 1;
  let pages = 0;
  while (from !== null) {
    const res = await api(`/api/v1/sessions/${big.sessionId}/transcript?q=${q}&from_seq=${from}`);
    if (res.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    expect(res.status).toBe(200);
    const page = (await res.json()) as SearchPage;
    matches.push(...page.matches);
    pages++;
    expect(page.truncated).toBe(page.next_from_seq !== null);
    if (page.next_from_seq !== null) expect(page.next_from_seq).toBeGreaterThan(from);
    from = page.next_from_seq;
  }
  return { matches, pages };
}

it(`a search over ${OUTPUT_BYTES / 1e6} MB stays within ${RSS_BOUND_MB} MB of RSS and /healthz answers meanwhile`, async () => {
  const watched = await whileWatching(big.server, () => searchAll('NEEDLE-AT-THE-END'));
  const found = watched.result;
  process.stdout.write(
    `search of ${OUTPUT_BYTES / 1e6} MB: ${found.pages} pages, RSS ${watched.baselineMb.toFixed(0)} -> ` +
      `peak ${watched.peakMb.toFixed(0)} MB, slowest /healthz ${watched.slowestHealthzMs} ms\n`,
  );
  expect(found.matches.map((m) => m.text)).toEqual(['NEEDLE-AT-THE-END']);
  expect(watched.peakMb - watched.baselineMb).toBeLessThan(RSS_BOUND_MB);
  expect(watched.slowestHealthzMs).toBeLessThan(HEALTHZ_BOUND_MS);
  expect(found.pages).toBeGreaterThan(1); // the budget cut the scan into pages
});

it('one search at a time per principal: a concurrent one gets 429 with Retry-After', async () => {
  const pid = big.server.child.pid!;
  const baseline = rssMb(pid);
  const answers = await Promise.all(
    [1, 2, 3].map(() => api(`/api/v1/sessions/${big.sessionId}/transcript?q=NEEDLE-AT-THE-END&from_seq=1`)),
  );
  const statuses = answers.map((r) => r.status).sort();
  expect(statuses).toContain(200);
  expect(statuses).toContain(429);
  const refused = answers.find((r) => r.status === 429)!;
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(JSON.stringify(await refused.json())).toContain('RATE_LIMITED');
  expect(rssMb(pid) - baseline).toBeLessThan(RSS_BOUND_MB);
});

it('a page of frames carries a bounded amount of output, whatever the limit', async () => {
  const pid = big.server.child.pid!;
  const baseline = rssMb(pid);
  const res = await api(`/api/v1/sessions/${big.sessionId}/transcript?limit=10000`);
  expect(res.status).toBe(200);
  const page = (await res.json()) as { frames: Array<{ data?: string }>; truncated: boolean; next_from_seq: number };
  const bytes = page.frames.reduce((n, f) => n + Buffer.from(f.data ?? '', 'base64').length, 0);
  expect(page.truncated).toBe(true);
  expect(bytes).toBeLessThan(9 * 1024 * 1024); // 8 MiB, plus the frame that passed it
  expect(page.next_from_seq).toBeGreaterThan(1);
  expect(rssMb(pid) - baseline).toBeLessThan(RSS_BOUND_MB);
});
