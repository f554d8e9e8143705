/**
 * Keyframe fidelity as a terminal other than xterm.js sees it: a tmux pane fed the whole stream
 * (a client attached from the start) and a tmux pane fed only the keyframe (a client attached
 * later) must show the same cells and attributes (`capture-pane -e`) and the same modes and title
 * (`display -p '#{keypad_flag}'` …). tmux ignores some sequences xterm.js accepts (DECNKM), so
 * this catches what the xterm.js round trip cannot.
 */
import { TerminalState } from '../src';
import { TMUX_INSTALLED, TmuxServer } from '@pty-ws/testkit';
import { utf8 } from './screen';

const COLS = 40;
const ROWS = 8;
const E = '\x1b[';

async function keyframeOf(stream: string): Promise<string> {
  const state = new TerminalState({ cols: COLS, rows: ROWS });
  try {
    state.write(utf8(stream));
    return (await state.snapshot()).snapshot;
  } finally {
    state.dispose();
  }
}

const CASES: Array<[string, string]> = [
  // vim and less: application cursor keys and keypad (DECKPAM), then a full-screen redraw.
  ['application keypad (vim, less)', `${E}?1049h${E}?1h\x1b=${E}H${E}2J~\r\n~\r\n${E}8;1H"file" 2L, 10B`],
  ['curly underline with a 256-colour underline colour', `plain ${E}4:3;58;5;196mcurly red${E}0m done`],
  ['styled underlines with a truecolour underline colour', `${E}4:2mdouble${E}4:4;58:2::10:20:30mdotted${E}0m`],
  ['window title (OSC 0)', '\x1b]0;vim: notes.txt\x07$ '],
  ['window title (OSC 2), then text', 'a\x1b]2;build log\x1b\\b'],
];

(TMUX_INSTALLED ? describe : describe.skip)('keyframe fidelity against tmux', () => {
  let tmux: TmuxServer;
  beforeAll(() => {
    tmux = new TmuxServer();
  });
  afterAll(() => tmux?.dispose());

  it.each(CASES)('%s: a late pane matches the one attached from the start', async (_name, stream) => {
    const attached = tmux.pane(COLS, ROWS, stream);
    const fresh = tmux.pane(COLS, ROWS, await keyframeOf(stream));
    const [want, got] = await tmux.converge(attached, fresh);
    expect(got).toEqual(want);
  });
});
