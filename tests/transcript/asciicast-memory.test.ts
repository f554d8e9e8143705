/**
 * asciicast export of a 100 MB transcript: the recording is streamed in 64 KiB parts with the
 * socket's backpressure, so the edge's resident set stays within RSS_BOUND_MB of its baseline
 * whether the client reads fast, slowly or not at all, `/healthz` answers during the export, a principal
 * runs one export at a time (429 with Retry-After), and a client that goes away or stalls for good
 * frees its place.
 * The recording is complete (every byte of output, the marker last) and a player reads it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitUntil } from '@pty-ws/testkit';
import {
  LINE_CHAR,
  OUTPUT_BYTES,
  rssMb,
  startBigTranscript,
  whileWatching,
  type BigTranscript,
} from './big-transcript';

jest.setTimeout(300_000);

/**
 * Growth allowed. An export holds one page of frames (~2 MB of output) and one 64 KiB part; its
 * garbage is small strings that die in V8's nursery and the page's frame buffers, which V8 frees
 * by its external-memory trigger, plus what malloc keeps (the services' huge-page tunable):
 * 0-50 MB here, idle or with two CPU-bound processes beside it. When each frame's text and each
 * page's part were V8 large objects, an export left them until the next full collection, and the
 * rise went from 20 to 370 MB with the client's pace and the machine's load.
 */
const RSS_BOUND_MB = 150;
/** /healthz must answer within this while an export runs (liveness, not speed: generous). */
const HEALTHZ_BOUND_MS = 3000;
const MARKER = 'CAST-AT-THE-END';

let big: BigTranscript;
const castPath = (query = '') => `/api/v1/sessions/${big.sessionId}/transcript?format=asciicast${query}`;

beforeAll(async () => {
  big = await startBigTranscript(MARKER);
});
afterAll(() => big?.server.kill());

interface CastSummary {
  header: Record<string, unknown>;
  events: number;
  /** LINE_CHAR characters in the output events. */
  lineChars: number;
  last: [number, string, string] | undefined;
}

/**
 * Reads a recording as it arrives, checking each line, without holding it whole; with `pauseMs`,
 * waiting that long after each read (a client slower than the server, as any is on a busy machine).
 */
async function readCast(res: Response, pauseMs = 0): Promise<CastSummary> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  let header: Record<string, unknown> | undefined;
  const summary = { events: 0, lineChars: 0, last: undefined as CastSummary['last'] };
  let lastT = 0;
  const take = (line: string) => {
    if (header === undefined) {
      header = JSON.parse(line) as Record<string, unknown>;
      return;
    }
    const event = JSON.parse(line) as [number, string, string];
    expect(['o', 'r']).toContain(event[1]);
    if (event[0] < lastT) throw new Error(`time went back at event ${summary.events}: ${line.slice(0, 80)}`);
    lastT = event[0];
    summary.events++;
    summary.last = event;
    if (event[1] !== 'o') return;
    const code = LINE_CHAR.charCodeAt(0);
    for (let i = 0; i < event[2].length; i++) if (event[2].charCodeAt(i) === code) summary.lineChars++;
  };
  for (;;) {
    const { done, value } = await reader.read();
    rest += decoder.decode(value, { stream: !done });
    const lines = rest.split('\n');
    rest = lines.pop()!;
    for (const line of lines) take(line);
    if (done) break;
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  expect(rest).toBe(''); // newline-terminated
  return { header: header!, ...summary };
}

it.each([
  ['a client reading as fast as it can', 0],
  ['a client that pauses after each read', 2],
])(
  `an export of ${OUTPUT_BYTES / 1e6} MB to %s stays within ${RSS_BOUND_MB} MB of RSS, is complete, and /healthz answers meanwhile`,
  async (reader, pauseMs) => {
    const t0 = Date.now();
    const watched = await whileWatching(big.server, async () => {
      const res = await big.api(castPath());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-asciicast');
      return readCast(res, pauseMs);
    });
    const cast = watched.result;
    process.stdout.write(
      `asciicast export of ${OUTPUT_BYTES / 1e6} MB to ${reader}: ${cast.events} events in ${Date.now() - t0} ms, ` +
        `RSS ${watched.baselineMb.toFixed(0)} -> peak ${watched.peakMb.toFixed(0)} MB, ` +
        `slowest /healthz ${watched.slowestHealthzMs} ms\n`,
    );
    expect(cast.header).toMatchObject({ version: 2, width: expect.any(Number), height: expect.any(Number) });
    // Every line's characters (99 of each 100 bytes), then the marker as the last output.
    expect(cast.lineChars).toBe((OUTPUT_BYTES / 100) * 99);
    expect(cast.last?.[1]).toBe('o');
    expect(cast.last?.[2]).toContain(MARKER);
    expect(cast.events).toBeGreaterThan(1);
    expect(watched.peakMb - watched.baselineMb).toBeLessThan(RSS_BOUND_MB);
    expect(watched.slowestHealthzMs).toBeLessThan(HEALTHZ_BOUND_MS);
  },
);

/** Waits until this principal may export again (a one-frame export answers 200, not 429). */
function placeFreed(timeoutMs: number, what: string): Promise<unknown> {
  return waitUntil(
    async () => {
      const again = await big.api(castPath('&limit=1'));
      await again.text();
      return again.status === 200;
    },
    timeoutMs,
    what,
    500,
  );
}

/** The server's CPU time in clock ticks (user + system). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

it('a client that stops reading holds the export back (nothing buffered ahead), and leaving frees its place', async () => {
  const pid = big.server.child.pid!;
  const baseline = rssMb(pid);
  const abort = new AbortController();
  const res = await big.api(castPath(), { signal: abort.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  try {
    expect((await reader.read()).done).toBe(false);
    // Not reading: the server goes idle, waiting for the socket.
    let peak = baseline;
    let ticks: number | undefined;
    let idleIntervals = 0;
    await waitUntil(
      () => {
        peak = Math.max(peak, rssMb(pid));
        const now = cpuTicks(pid);
        // At most 20 ms of CPU in each of two consecutive 300 ms intervals.
        idleIntervals = ticks !== undefined && now - ticks <= 2 ? idleIntervals + 1 : 0;
        ticks = now;
        return idleIntervals >= 2;
      },
      60_000,
      'the server to go idle',
      300,
    );
    process.stdout.write(`stalled reader: RSS ${baseline.toFixed(0)} -> peak ${peak.toFixed(0)} MB\n`);
    expect(peak - baseline).toBeLessThan(RSS_BOUND_MB);
    // Idle with the export still running (its place taken: the same principal's second one is
    // refused), not idle because it wrote everything into the socket's buffer and finished.
    const second = await big.api(castPath());
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.stringify(await second.json())).toContain('RATE_LIMITED');
  } finally {
    abort.abort();
    await reader.cancel().catch(() => undefined);
  }
  // Gone: its place is free again.
  await placeFreed(10_000, 'the aborted export to release its place');
});

it('a reader that stalls for good is dropped (uWS times the stalled write out) and its place freed', async () => {
  const res = await big.api(castPath());
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  try {
    expect((await reader.read()).done).toBe(false);
    await placeFreed(60_000, 'the stalled export to be dropped');
  } finally {
    await reader.cancel().catch(() => undefined);
  }
});

it('a range near the end (its start size found by a scan of all before it) is a recording asciinema plays', async () => {
  const head = (await (await big.api(`/api/v1/sessions/${big.sessionId}/transcript?limit=1`)).json()) as {
    last_seq: number;
  };
  const pid = big.server.child.pid!;
  const baseline = rssMb(pid);
  const res = await big.api(castPath(`&from_seq=${head.last_seq - 3}`));
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(rssMb(pid) - baseline).toBeLessThan(RSS_BOUND_MB);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ptyws-cast-')), 'tail.cast');
  writeFileSync(file, text);
  // `asciinema cat` insists on a terminal: `script` gives it one.
  const played = spawnSync('script', ['-q', '-e', '-c', `asciinema cat ${file}`, '/dev/null'], {
    encoding: 'utf8',
    timeout: 20_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  expect(played.status).toBe(0);
  expect(played.stdout).toContain(MARKER);
});
