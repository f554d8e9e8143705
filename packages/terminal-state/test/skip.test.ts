import fc from 'fast-check';
import { TerminalState, type ScreenSnapshot } from '@pty-ws/terminal-state';
import { floodCase, type FloodCase, type Pause } from './floodStreams';

/**
 * The flood skip (skipGate.ts) against the terminal it must be indistinguishable from: the same
 * writes, drains, resizes and snapshots go to a TerminalState that skips and to one that parses
 * every byte; every snapshot must be byte for byte the same, also after the final resizes, which
 * reflow and pull scrollback lines back onto the screen.
 */

const nextImmediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const nextTimer = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function afterChunk(pause: Pause, pair: TerminalState[], snaps: Promise<ScreenSnapshot>[][]): Promise<void> {
  if (pause.kind === 'immediate') await nextImmediate();
  else if (pause.kind === 'timer') await nextTimer();
  else if (pause.kind === 'snapshot') snaps.push(pair.map((t) => t.snapshot()));
  else if (pause.kind === 'resize') for (const t of pair) t.resize(pause.cols, pause.rows);
}

/** Runs one case; returns how many bytes the skipping terminal dropped. */
async function compare(c: FloodCase): Promise<number> {
  const opts = { cols: c.cols, rows: c.rows, scrollback: c.scrollback };
  const skipping = new TerminalState({ ...opts, maxQueuedBytes: c.maxQueuedBytes });
  const reference = new TerminalState({ ...opts, skipScrolledOut: false });
  const pair = [skipping, reference];
  const parsed = [0, 0];
  const snaps: Promise<ScreenSnapshot>[][] = [];
  let chunks = 0;
  try {
    for (let at = 0, i = 0; at < c.stream.length; i++) {
      const size = c.sizes[i % c.sizes.length] ?? 1;
      const chunk = c.stream.subarray(at, at + size);
      at += size;
      chunks++;
      pair.forEach((t, k) =>
        t.write(chunk, () => {
          parsed[k] = (parsed[k] ?? 0) + 1;
        }),
      );
      await afterChunk(c.pauses[i % c.pauses.length] ?? { kind: 'none' }, pair, snaps);
    }
    snaps.push(pair.map((t) => t.snapshot()));
    // Grow: the lines pulled back from the scrollback must be the same too.
    for (const t of pair) t.resize(t.cols, t.rows + c.scrollback);
    snaps.push(pair.map((t) => t.snapshot()));
    for (const t of pair) t.resize(t.cols + 7, t.rows);
    snaps.push(pair.map((t) => t.snapshot()));
    for (const [i, [a, b]] of (await Promise.all(snaps.map((s) => Promise.all(s)))).entries()) {
      expect({ snapshot: i, ...a }).toEqual({ snapshot: i, ...b });
    }
    // Every chunk's onParsed ran, skipped or not.
    expect(parsed).toEqual([chunks, chunks]);
    return skipping.skippedBytes;
  } finally {
    for (const t of pair) t.dispose();
  }
}

describe('flood skip', () => {
  it('snapshots of a skipping terminal equal those of one that parses everything', async () => {
    let runs = 0;
    let skippedRuns = 0;
    await fc.assert(
      fc.asyncProperty(floodCase, async (c) => {
        const skipped = await compare(c);
        runs++;
        if (skipped > 0) skippedRuns++;
      }),
      // Fixed seed: CI must be reproducible. Change it (or drop it) locally to explore further.
      { numRuns: 1000, seed: 20261203 },
    );
    // The property is only worth something if skipping actually happened in many runs.
    expect(skippedRuns).toBeGreaterThan(runs / 5);
  }, 600_000);

  it('drops most of a cat-like flood and still reports every chunk parsed', async () => {
    const line = 'x'.repeat(79) + '\r\n';
    const state = new TerminalState({ cols: 80, rows: 24 });
    const reference = new TerminalState({ cols: 80, rows: 24, skipScrolledOut: false });
    let parsed = 0;
    const chunk = new TextEncoder().encode(line.repeat(800) + 'prompt$ ');
    for (let i = 0; i < 20; i++) {
      state.write(chunk, () => parsed++);
      reference.write(chunk);
      // As PTY reads arrive: xterm has parsed what was handed over before the next one.
      await nextTimer();
    }
    const [a, b] = await Promise.all([state.snapshot(), reference.snapshot()]);
    expect(a).toEqual(b);
    expect(parsed).toBe(20);
    expect(state.skippedBytes).toBeGreaterThan(chunk.length * 20 * 0.7);
    state.dispose();
    reference.dispose();
  });

  it.each([
    ['cursor above the margins', '\x1b[4;6r\x1b[1;1H'],
    ['cursor below the margins', '\x1b[2;3r\x1b[6;1H'],
    ['inside an unfinished CSI', '\x1b[3'],
    ['inside an OSC string', '\x1b]0;'],
    ['after a partial UTF-8 sequence', '\xe4'],
  ])('does not skip from a state the rule does not cover: %s', async (_name, before) => {
    // The flood starts exactly at a drain, with xterm idle in that state.
    const opts = { cols: 10, rows: 6, scrollback: 2 };
    const pair = [new TerminalState(opts), new TerminalState({ ...opts, skipScrolledOut: false })];
    const head = Uint8Array.from([...before].map((ch) => ch.charCodeAt(0)));
    const flood = new TextEncoder().encode(Array.from({ length: 60 }, (_, i) => `L${i}\r\n`).join(''));
    for (const t of pair) t.write(head);
    await nextTimer();
    await nextTimer();
    for (const t of pair) t.write(flood);
    const [a, b] = await Promise.all(pair.map((t) => t.snapshot()));
    expect(a).toEqual(b);
    for (const t of pair) t.dispose();
  });
});
