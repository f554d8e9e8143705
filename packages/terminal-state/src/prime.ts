import { TerminalState } from './TerminalState';

/**
 * Output that takes the keyframe code through its main branches: pens (bold, inverse, 256 and RGB
 * colours), a wide character, a soft wrap, coloured blanks, scroll margins, the alternate screen.
 */
const SAMPLE = [
  '\x1b[1;32muser@host\x1b[0m:\x1b[34m~/src\x1b[0m$ ls -l\r\n',
  'total 8\r\n\x1b[38;5;208mdrwxr-xr-x\x1b[0m 2 user user 4096 \u4e2d\u6587 notes\r\n',
  `${'x'.repeat(150)}\r\n`,
  '\x1b[44m\x1b[K\x1b[0m\r\n\x1b[38;2;10;200;30mrgb\x1b[0m \x1b[7minverse\x1b[27m\r\n',
  '\x1b[?1049h\x1b[2;20r\x1b[H\x1b[7m status \x1b[0m\x1b[5;5Hbody\x1b[r',
  '\x1b[?1049l$ ',
].join('');

/** Snapshots taken: V8 optimises the serializer after a few dozen calls. */
const ROUNDS = 24;

/**
 * Runs the keyframe code on a throwaway terminal until V8 has compiled it. Untouched, a process's
 * first keyframes cost 30, 10, 5 ms (an empty 120×30 screen; ~0.3 ms once warm), and a session's
 * first cadence keyframe held up the keystroke behind it by as much: the worst echo of a run.
 */
export async function primeKeyframes(cols = 120, rows = 30): Promise<void> {
  const term = new TerminalState({ cols, rows });
  const utf8 = new TextEncoder();
  try {
    for (let i = 0; i < ROUNDS; i++) {
      term.write(utf8.encode(i % 2 === 0 ? SAMPLE : `${i}\r\n`), undefined, true);
      await term.snapshot();
    }
  } finally {
    term.dispose();
  }
}
