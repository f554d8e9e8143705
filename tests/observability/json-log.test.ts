/**
 * The log stays one JSON object per line whatever a session prints. xterm.js, which the agent runs
 * as each session's headless terminal, used to print a 34-line dump to the console for every byte
 * it could not parse (any DEL, `cat` of a binary): one user could flood the log with non-JSON
 * text. Now nothing is printed and ptyws_mirror_parse_errors_total counts them. `npm start` runs
 * as its own process, with the mirror in the event loop and in its worker thread.
 */
import { joinSession, startStandaloneProcess, waitUntil, type StandaloneProcess } from '@pty-ws/testkit';
import { attach, buildStandalone, createSession, httpGet, parseExposition } from './support';

const DELS = 50;

// Incremental: a no-op when dist is current (npm test builds first anyway).
beforeAll(buildStandalone, 130_000);

/** Lines of `text` that are not one JSON object. */
function notJson(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => {
      try {
        const v: unknown = JSON.parse(line);
        return typeof v !== 'object' || v === null || Array.isArray(v);
      } catch {
        return true;
      }
    });
}

async function malformedCount(s: StandaloneProcess): Promise<number> {
  const { samples } = parseExposition((await httpGet(`${s.httpUrl}/metrics`)).text);
  return samples.get('ptyws_mirror_parse_errors_total{kind="malformed"}') ?? 0;
}

describe.each(['main', 'worker'])('a binary dump into a session (mirror thread %s)', (thread) => {
  let s: StandaloneProcess | undefined;
  afterEach(() => s?.kill());

  it('leaves the log JSON-only and is counted in ptyws_mirror_parse_errors_total', async () => {
    s = await startStandaloneProcess({ PTYWS_MIRROR_THREAD: thread });
    // From here on: npm start prints a human-readable banner first, the log after it.
    const [outFrom, errFrom] = [s.stdout().length, s.stderr().length];
    const sessionId = await createSession(s, {
      // DEL bytes (octal 177), then a binary: `head -c 65536 /usr/bin/ls` made 1,598 log lines.
      argv: [
        '/bin/sh',
        '-c',
        `printf '${'\\177'.repeat(DELS)}'; head -c 65536 /bin/ls; echo; echo DUMP_DONE; exec sleep 60`,
      ],
      cols: 80,
      rows: 24,
    });
    const c = await attach(s, sessionId);
    await joinSession(c, { role: 'observer' }, { replayFrom: 0 });
    await c.collectOutput(/DUMP_DONE/, 10_000);
    // A keyframe request makes the mirror parse everything queued at once.
    c.send('pty.request_keyframe', {});
    await waitUntil(async () => (await malformedCount(s!)) >= DELS, 10_000, 'the skipped bytes to be counted');
    await c.close();
    const logged = s.stdout().slice(outFrom) + '\n' + s.stderr().slice(errFrom);
    expect(logged).toMatch(/"session_id"/); // the session's own log lines are there
    expect(notJson(logged)).toEqual([]);
  });
});
