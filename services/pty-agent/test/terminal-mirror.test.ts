import { TerminalState } from '@pty-ws/terminal-state';
import { waitUntil } from '@pty-ws/testkit';
import { createTerminalMirror } from '../src/mirror/terminal-mirror';

/**
 * The mirror worker (PTYWS_MIRROR_THREAD=worker) answers snapshots exactly as the in-thread
 * TerminalState does for the same writes and resizes, in order. Needs the build's worker script.
 */
describe('terminal mirror in its worker thread', () => {
  it('snapshots and reads the screen as an in-thread TerminalState does, across writes and a resize', async () => {
    const opts = { cols: 40, rows: 10 };
    const remote = createTerminalMirror({ ...opts, thread: 'worker' });
    const local = new TerminalState(opts);
    expect(remote).not.toBeInstanceOf(TerminalState); // the worker, not the fallback
    const chunks = [
      '\u001b[1;31mred\u001b[0m plain\r\n',
      'wide: \u4e2d\u6587 and more\r\n',
      Array.from({ length: 30 }, (_, i) => `line ${i}\r\n`).join(''),
    ];
    for (const c of chunks) {
      remote.write(Buffer.from(c));
      local.write(Buffer.from(c));
    }
    const before = await remote.snapshot();
    expect(before).toEqual(await local.snapshot());
    remote.resize(30, 8);
    local.resize(30, 8);
    remote.write(Buffer.from('after resize\r\n'));
    local.write(Buffer.from('after resize\r\n'));
    const after = await remote.snapshot();
    expect(after).toEqual(await local.snapshot());
    expect(after.cols).toBe(30);
    for (const format of ['text', 'ansi'] as const)
      expect(await remote.screen(format)).toEqual(await local.screen(format));
    expect((await remote.screen('text')).lines.at(-2)).toBe('after resize');
    remote.dispose();
    local.dispose();
    await expect(remote.snapshot()).rejects.toThrow(/disposed/);
  });
});

describe('terminal mirror: malformed output', () => {
  it.each(['worker', 'main'] as const)(
    'counts the bytes xterm.js skips (%s thread) and prints nothing',
    async (thread) => {
      const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
        jest.spyOn(console, m).mockImplementation(() => undefined),
      );
      let malformed = 0;
      const mirror = createTerminalMirror({ thread, cols: 40, rows: 10, onMalformedInput: (n) => (malformed += n) });
      try {
        mirror.write(new Uint8Array(50).fill(0x7f));
        mirror.write(Buffer.from('after the DELs\r\n'));
        const snap = await mirror.snapshot();
        expect(snap.snapshot).toContain('after the DELs');
        // The worker reports its count with the parse progress, a turn after the parse.
        await waitUntil(() => malformed >= 50, 2000, 'the count of skipped DELs');
        expect(malformed).toBe(50);
        for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      } finally {
        mirror.dispose();
        for (const spy of spies) spy.mockRestore();
      }
    },
  );
});
