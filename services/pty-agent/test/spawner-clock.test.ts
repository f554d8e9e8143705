/**
 * The pty spawner's time is the Clock port's (an ESLint rule keeps raw timers out of
 * hosts/spawner): with a ManualClock a test walks the drain before a session's exit instead of
 * sleeping through it.
 */
import type { PtyExit } from '@pty-ws/ports';
import { SpawnerPtyHost } from '@pty-ws/pty-agent';
import { ManualClock, waitUntil } from '@pty-ws/testkit';

describe("the spawner's clock", () => {
  it('holds the exit until the tty has been quiet DRAIN_QUIET_MS on the clock, then delivers it after the last byte', async () => {
    const clock = new ManualClock();
    const host = SpawnerPtyHost.find({ clock, streamRelay: false });
    if (!host) throw new Error('the spawner cannot run here: is the build there, and setsid and stty on PATH?');
    const proc = await host.spawn('t', {
      argv: ['/bin/sh', '-c', 'echo LAST'],
      cwd: '/tmp',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
      size: { cols: 80, rows: 24 },
      backend: 'native',
      sessionClass: 'direct',
    });
    let text = '';
    let exit: PtyExit | undefined;
    proc.onData((d) => (text += Buffer.from(d).toString('latin1')));
    proc.onExit((e) => (exit = e));
    // The program has ended and the drain waits on the clock: one timer, and no exit yet.
    await waitUntil(() => clock.pendingCount === 1, 10_000, 'the drain to wait on the clock');
    await new Promise((r) => setTimeout(r, 100)); // real time passing changes nothing
    expect(exit).toBeUndefined();
    clock.advance(49);
    expect(exit).toBeUndefined();
    clock.advance(1);
    await waitUntil(() => exit !== undefined, 10_000, 'the exit once the tty was quiet on the clock');
    expect(exit).toEqual({ exitCode: 0, signal: null });
    expect(text).toBe('LAST\r\n');
  });
});
