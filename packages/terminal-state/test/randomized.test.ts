import fc from 'fast-check';
import { TerminalState } from '@pty-ws/terminal-state';
import { continueBoth, diffTerminals, hasKnownLimitation, referenceTerminal, restore, utf8 } from './screen';
import { outputChunk, session } from './randomStreams';

const COLS = 24;
const ROWS = 10;

describe('keyframes of random output streams', () => {
  it('restore every cell and the hidden state, and later output behaves the same', async () => {
    await fc.assert(
      fc.asyncProperty(session, outputChunk, async (chunks, continuation) => {
        const state = new TerminalState({ cols: COLS, rows: ROWS });
        for (const chunk of chunks) state.write(utf8(chunk));
        const snap = await state.snapshot();
        state.dispose();

        const expected = await referenceTerminal(COLS, ROWS, ...chunks);
        fc.pre(!hasKnownLimitation(expected));
        const actual = await restore(snap);
        expect(diffTerminals(expected, actual)).toEqual([]);
        await continueBoth(expected, actual, continuation);
        expect(diffTerminals(expected, actual)).toEqual([]);
      }),
      // Fixed seed: CI must be reproducible. Change it (or drop it) locally to explore further.
      { numRuns: 800 },
    );
  }, 900_000);
});
