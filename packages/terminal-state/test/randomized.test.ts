import fc from 'fast-check';
import { TerminalState } from '@pty-ws/terminal-state';
import {
  continueBoth,
  diffTerminals,
  hasKnownLimitation,
  newTerminal,
  referenceTerminal,
  restore,
  utf8,
  writeAsync,
} from './screen';
import { outputChunk, session } from './randomStreams';

const COLS = 24;
const ROWS = 10;

/**
 * xterm.js 6 ED 1 / DECSED 1 with the cursor in the last column clears the soft-wrap flag of
 * `lines.get(y + 1)`, a screen row used as a buffer index: which row loses its flag depends on
 * how much scrollback each terminal holds (see eraseAboveFix.ts). A restored terminal has none,
 * so the two legitimately disagree on that flag after such a sequence in the continuation.
 */
function erasesAboveFromLastColumn(continuation: string): boolean {
  return /\x1b\[\??1J/.test(continuation);
}

describe('keyframes of random output streams', () => {
  it('restore every cell and the hidden state, and later output behaves the same', async () => {
    await fc.assert(
      fc.asyncProperty(session, outputChunk, async (chunks, continuation) => {
        const state = new TerminalState({ cols: COLS, rows: ROWS });
        for (const chunk of chunks) state.write(utf8(chunk));
        const snap = await state.snapshot();
        state.dispose();

        const expected = await referenceTerminal(COLS, ROWS, ...chunks);
        fc.pre(!hasKnownLimitation(expected) && !erasesAboveFromLastColumn(continuation));
        const actual = await restore(snap);
        expect(diffTerminals(expected, actual)).toEqual([]);
        await continueBoth(expected, actual, continuation);
        if (!hasKnownLimitation(expected)) expect(diffTerminals(expected, actual)).toEqual([]);
      }),
      // Fixed seed: CI must be reproducible. Change it (or drop it) locally to explore further.
      { numRuns: 150, seed: 20240611 },
    );
  }, 120_000);

  it('stay exact when resizes are interleaved with the output', async () => {
    // The reference must reflow like the emulator inside TerminalState: same scrollback.
    const scrollback = 100;
    const step = fc.oneof(
      { weight: 3, arbitrary: outputChunk.map((data) => ({ data })) },
      {
        weight: 1,
        arbitrary: fc.record({ cols: fc.integer({ min: 8, max: 30 }), rows: fc.integer({ min: 3, max: 12 }) }),
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), outputChunk, async (steps, continuation) => {
        const state = new TerminalState({ cols: COLS, rows: ROWS, scrollback });
        const expected = newTerminal(COLS, ROWS, scrollback);
        for (const s of steps) {
          if ('data' in s) {
            state.write(utf8(s.data));
            await writeAsync(expected, s.data);
          } else {
            state.resize(s.cols, s.rows);
            expected.resize(s.cols, s.rows);
          }
        }
        const snap = await state.snapshot();
        state.dispose();
        expect([snap.cols, snap.rows]).toEqual([expected.cols, expected.rows]);
        fc.pre(!hasKnownLimitation(expected) && !erasesAboveFromLastColumn(continuation));
        const actual = await restore(snap);
        expect(diffTerminals(expected, actual)).toEqual([]);
        await continueBoth(expected, actual, continuation);
        if (!hasKnownLimitation(expected)) expect(diffTerminals(expected, actual)).toEqual([]);
      }),
      { numRuns: 100, seed: 20240612 },
    );
  }, 120_000);
});
