/**
 * tmux draws a pane's output for its clients per read of the pane: when one read scrolls the
 * screen by more than its height, the client gets "scroll up a screen" (CSI <rows> S) and the
 * final screen, and the rows that scrolled through in between reach it never (they are only in
 * tmux's history). A program that prints in bursts of more than a screen at a time (or a busy
 * server that reads a flood in large pieces) would so lose lines from the session's output, with
 * no gap in the log. The agent puts those rows, taken from tmux's history, where the client
 * skipped them, and the client's output still draws the screen tmux shows.
 */
import type { PtyProcess } from '@pty-ws/ports';
import { SessionHosts } from '@pty-ws/pty-agent';
import { visibleText } from '@pty-ws/pty-agent/internal';
import { captureScreen, delay, newTerminal, waitUntil, writeAll } from '@pty-ws/testkit';
import { multiplexerScreen, trimLines } from './multiplexer-view';
import { INSTALLED, privateAgent } from './support';

jest.setTimeout(60_000);

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/tmp', TERM: 'xterm-256color' };
const BURSTS = 40;
const PER_BURST = 60;

/** BURSTS writes of PER_BURST numbered lines each (one write: tmux reads it at once), then ALLDONE. */
function bursts(): string {
  const js =
    `let b=0;const t=setInterval(()=>{let s='';for(let k=1;k<=${PER_BURST};k++)s+='L'+(b*${PER_BURST}+k)+'E\\n';` +
    `process.stdout.write(s);if(++b>=${BURSTS}){clearInterval(t);process.stdout.write('ALLDONE\\n')}},40)`;
  return `${process.execPath} -e "${js}"; exec sleep 3600`;
}

const suite = INSTALLED.includes('tmux') ? describe : describe.skip;

suite('tmux: bursts of more than a screen', () => {
  const agent = privateAgent();
  const hosts = new SessionHosts({ stateDir: agent.stateDir, agentId: agent.agentId });
  let proc: PtyProcess | undefined;
  afterAll(() => {
    proc?.kill();
    agent.cleanup();
  });

  it('every line is in the output, in order, once, and the output draws the screen tmux shows', async () => {
    const name = `burst-${process.pid}`;
    proc = await hosts.spawn(name, {
      argv: ['/bin/sh', '-c', bursts()],
      cwd: '/tmp',
      env,
      size: { cols: 80, rows: 24 },
      backend: 'tmux',
      sessionClass: 'managed',
    });
    let raw = '';
    proc.onData((d) => (raw += Buffer.from(d).toString('utf8')));
    await waitUntil(() => visibleText(raw).includes('ALLDONE'), 30_000, 'ALLDONE', 20);
    await delay(300);

    const numbers = [...visibleText(raw).matchAll(/L(\d+)E/g)].map((m) => Number(m[1]));
    const firsts = [...new Set(numbers)];
    const seen = new Set(numbers);
    const missing: number[] = [];
    for (let i = 1; i <= BURSTS * PER_BURST; i++) if (!seen.has(i)) missing.push(i);
    expect({ missing: missing.length, first: missing[0] }).toEqual({ missing: 0, first: undefined });
    expect(firsts.filter((n, i) => i > 0 && n <= firsts[i - 1]!)).toEqual([]);
    expect(numbers.length).toBe(firsts.length);

    const term = newTerminal(80, 24);
    await writeAll(term, Buffer.from(raw, 'utf8'));
    const drawn = trimLines(captureScreen(term).lines);
    term.dispose();
    expect(drawn).toEqual(await multiplexerScreen('tmux', agent.paths, name, agent.stateDir));
  });
});
