import { TerminalState } from '@pty-ws/terminal-state';
import { waitUntil } from '@pty-ws/testkit';
import { SleepingMirror } from '../src/mirror/sleeping-mirror';

/**
 * An idle session's mirror lets go of its emulator and keeps a keyframe; woken by output, a
 * resize or a read, it shows the same screen (colours, cursor, title, modes) as one that never
 * slept, and goes on from there.
 */
const SCREEN = [
  '\u001b]2;my title\u0007',
  '\u001b[1;31mred\u001b[0m plain\r\n',
  'wide: \u4e2d\u6587 and more\r\n',
  Array.from({ length: 30 }, (_, i) => `line ${i}\r\n`).join(''),
  '\u001b[?2004h\u001b[5;7Hcursor here',
].join('');

describe('SleepingMirror', () => {
  let made: TerminalState[];
  const make = (cols: number, rows: number): TerminalState => {
    const t = new TerminalState({ cols, rows });
    made.push(t);
    return t;
  };
  beforeEach(() => (made = []));

  it('sleeps after the idle time and wakes with the same screen, for reads and for output', async () => {
    const mirror = new SleepingMirror(make, 40, 10, 50);
    const reference = new TerminalState({ cols: 40, rows: 10 });
    mirror.write(Buffer.from(SCREEN));
    reference.write(Buffer.from(SCREEN));
    await waitUntil(() => mirror.asleep, 5000, 'the mirror to sleep');
    expect(made).toHaveLength(1);
    expect(await mirror.snapshot()).toEqual(await reference.snapshot());
    for (const format of ['text', 'ansi'] as const)
      expect(await mirror.screen(format)).toEqual(await reference.screen(format));
    expect(made).toHaveLength(2);
    await waitUntil(() => mirror.asleep, 5000, 'the mirror to sleep again');
    mirror.write(Buffer.from(' and more\r\nnext line'));
    reference.write(Buffer.from(' and more\r\nnext line'));
    mirror.resize(30, 8);
    reference.resize(30, 8);
    expect(mirror.asleep).toBe(false);
    expect(await mirror.snapshot()).toEqual(await reference.snapshot());
    expect(mirror.cols).toBe(30);
    mirror.dispose();
    reference.dispose();
    await expect(mirror.snapshot()).rejects.toThrow(/disposed/);
  });

  it('starts asleep with a blank screen, and builds no emulator until output or a read', async () => {
    const mirror = new SleepingMirror(make, 40, 10, 50);
    expect(mirror.asleep).toBe(true);
    expect(made).toHaveLength(0);
    const blank = new TerminalState({ cols: 40, rows: 10 });
    expect(await mirror.snapshot()).toEqual(await blank.snapshot());
    expect(made).toHaveLength(1);
    mirror.dispose();
    blank.dispose();
  });

  it('stays awake while output keeps coming', async () => {
    const mirror = new SleepingMirror(make, 40, 10, 50);
    for (let i = 0; i < 15; i++) {
      mirror.write(Buffer.from(`tick ${i}\r\n`));
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(mirror.asleep).toBe(false);
    expect(made).toHaveLength(1);
    mirror.dispose();
  });
});
