import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PtyExit, PtyProcess, SessionSpec } from '@pty-ws/ports';
import { SpawnerPtyHost } from '@pty-ws/pty-agent';
import { pathWatch, runningRelays } from '@pty-ws/pty-agent/internal';
import { Metrics } from '@pty-ws/telemetry';

// What the relay host tells: its read paths and failures, as the agent's metrics and log get them.
const metrics = new Metrics({ defaultMetrics: false });
const warnings: { fields: Record<string, unknown>; message: string }[] = [];
const watch = pathWatch(metrics, (fields, message) => warnings.push({ fields, message }));

/** One series of the metrics' text exposition. */
async function series(name: string): Promise<number> {
  const line = (await metrics.text()).split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no series ${name}`);
  return Number(line.slice(name.length + 1));
}

// The relay is part of the build here (gcc is on this machine): a missing binary must fail, not
// quietly test the event loop's reader twice.
const withRelay = SpawnerPtyHost.find({ streamRelay: true, watch });
if (!withRelay?.relayBinary)
  throw new Error('the stream relay is not built: is gcc there, and did `npm run build` run?');
const relayHost: SpawnerPtyHost = withRelay;

const spec = (argv: string[]): SessionSpec => ({
  argv,
  cwd: '/tmp',
  env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
  size: { cols: 80, rows: 24 },
  backend: 'native',
  sessionClass: 'direct',
});

interface Run {
  proc: PtyProcess & { relaying: boolean; readers(count: number): void };
  text: () => string;
  exit: Promise<PtyExit>;
  /** Whether the relay was seen reading, sampled every millisecond. */
  relayed: () => boolean;
}

async function start(argv: string[], host = relayHost): Promise<Run> {
  const proc = (await host.spawn('t', spec(argv))) as Run['proc'];
  let text = '';
  let relayed = false;
  const sample = setInterval(() => (relayed ||= proc.relaying), 1);
  proc.onData((d) => (text += Buffer.from(d).toString('latin1')));
  const exit = new Promise<PtyExit>((resolve) => proc.onExit(resolve)).finally(() => clearInterval(sample));
  return { proc, text: () => text, exit, relayed: () => relayed };
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** `seq from to` as the tty delivers it (\n becomes \r\n). */
function seqText(from: number, to: number): string {
  const lines: string[] = [];
  for (let i = from; i <= to; i++) lines.push(`${i}\r\n`);
  return lines.join('');
}

describe('the stream relay: a streaming session is read by a process of its own', () => {
  it('takes over while a session streams and hands back when it is quiet, every byte once and in order', async () => {
    // Two bursts, the second once the test saw the relay hand back after the first (a pause of
    // the test's choosing: a fixed sleep raced the quiet time on a loaded machine), then the exit
    // right after the second: the relay is started twice, and stopped once on quiet and once by the end.
    const run = await start(['/bin/sh', '-c', 'stty -echo; seq 1 200000; read _; seq 200001 400000; exit 4']);
    let exited = false;
    void run.exit.then(() => (exited = true));
    let relayedAgain = false;
    let sample: NodeJS.Timeout | undefined;
    try {
      await until(() => run.text().endsWith('200000\r\n'));
      expect(run.relayed()).toBe(true);
      // Quiet for RELAY_QUIET_MS (2 s), looked at every 250 ms: a relay that never hands back fails here.
      await until(() => !run.proc.relaying);
      sample = setInterval(() => (relayedAgain ||= run.proc.relaying), 1);
      run.proc.write(Buffer.from('\r'));
      expect(await run.exit).toEqual({ exitCode: 4, signal: null });
    } finally {
      clearInterval(sample);
      if (!exited) run.proc.kill('SIGKILL'); // a failure above must not leave it waiting for the second burst
    }
    expect(relayedAgain).toBe(true);
    expect(run.text() === seqText(1, 400000)).toBe(true);
  }, 20_000);

  it('hands the agent its reads gathered, not one 4 KiB tty read at a time (each woke the agent)', async () => {
    const run = await start(['/bin/sh', '-c', 'seq 1 1000000']);
    const sizes: number[] = [];
    run.proc.onData((d) => {
      if (run.proc.relaying) sizes.push(d.length);
    });
    await run.exit;
    expect(sizes.length).toBeGreaterThan(10);
    sizes.sort((a, b) => a - b);
    expect(sizes[sizes.length >> 1]).toBeGreaterThan(16 * 1024);
  }, 20_000);

  it("leaves the agent's pty master non-blocking (keystrokes are written on the event loop)", async () => {
    const run = await start(['/bin/sh', '-c', 'seq 1 300000; read _']);
    await until(() => run.proc.relaying);
    // The relay gets the master as fd 4: as fd 0 libuv would have made the shared open file blocking.
    const ptmx = readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === '/dev/ptmx';
      } catch {
        return false;
      }
    });
    expect(ptmx.length).toBeGreaterThan(0);
    for (const fd of ptmx) {
      const flags = /^flags:\s+(\d+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      expect(parseInt(flags ?? '0', 8) & 0o4000).toBe(0o4000);
    }
    await until(() => run.text().endsWith('300000\r\n'));
    expect(run.text() === seqText(1, 300000)).toBe(true);
    run.proc.write(Buffer.from('\r'));
    await run.exit;
  }, 20_000);

  it('holds output while paused, relay or not, and delivers the rest on resume', async () => {
    const run = await start(['/bin/sh', '-c', 'seq 1 400000']);
    await until(() => run.proc.relaying);
    run.proc.pause();
    await new Promise((r) => setTimeout(r, 50));
    const held = run.text().length;
    await new Promise((r) => setTimeout(r, 300));
    expect(run.text().length).toBe(held);
    run.proc.resume();
    await run.exit;
    expect(run.text() === seqText(1, 400000)).toBe(true);
  }, 20_000);

  it.each([
    ['the relay', relayHost, 200_000],
    ['the event loop', SpawnerPtyHost.find({ streamRelay: false }), 6_000],
  ])(
    'a program ending while its output is held loses nothing read by %s: the close hands it over',
    async (reader, host, left) => {
      // Held this close to the end, the program still finishes: what it printed last waits in the
      // relay's buffer and pipe (~330 KiB), or in the tty (~12 KiB). The hold outlasts the drain's
      // limit (DRAIN_SAFETY_MS, 5 s): the session closes while it is still held.
      const dir = mkdtempSync(join(tmpdir(), 'ptyws-held-exit-'));
      const file = join(dir, 'body');
      const body = seqText(1, 1_000_000);
      writeFileSync(file, body, 'latin1');
      const run = await start(['/bin/sh', '-c', `stty -opost; cat '${file}'`], host);
      let held = false;
      run.proc.onData(() => {
        if (held || run.text().length < body.length - left) return;
        held = true;
        run.proc.pause();
      });
      let exited = false;
      void run.exit.then(() => (exited = true));
      await until(() => exited, 12_000).catch(() => {
        run.proc.resume();
        throw new Error(
          `the program did not end while held: its last ${left} bytes did not fit in what ${reader} holds`,
        );
      });
      rmSync(dir, { recursive: true, force: true });
      expect(await run.exit).toEqual({ exitCode: 0, signal: null });
      expect(held).toBe(true);
      expect(run.relayed()).toBe(host === relayHost);
      expect(run.text().length).toBe(body.length);
      expect(run.text() === body).toBe(true);
      run.proc.resume();
    },
    20_000,
  );

  it('goes back to the event loop for good when its relay is killed, and the session goes on', async () => {
    // Counted from here: a session of another test that is still running counts too.
    const failures = await series('ptyws_helper_failures_total{where="stream_relay"}');
    const [eventLoop, relaying] = [
      await series('ptyws_pty_read_path{path="event_loop"}'),
      await series('ptyws_pty_read_path{path="stream_relay"}'),
    ];
    const run = await start(['/bin/sh', '-c', 'seq 1 200000; read _; seq 1 200000; echo END']);
    await until(() => run.text().endsWith('200000\r\n'));
    expect(run.relayed()).toBe(true);
    const [relay] = runningRelays(process.pid);
    expect(relay).toBeDefined();
    expect(await series('ptyws_pty_read_path{path="stream_relay"}')).toBe(relaying + 1);
    expect(await series('ptyws_pty_read_path{path="event_loop"}')).toBe(eventLoop);
    process.kill(relay as number, 'SIGKILL');
    await until(() => !run.proc.relaying);
    // Said, not silent: the metric, a warning, and the session counted on the event loop again.
    expect(await series('ptyws_helper_failures_total{where="stream_relay"}')).toBe(failures + 1);
    expect(warnings.at(-1)).toMatchObject({
      fields: { helper: 'stream_relay' },
      message: expect.stringMatching(/stream relay ended abnormally: this session reads on the event loop/),
    });
    expect(await series('ptyws_pty_read_path{path="stream_relay"}')).toBe(relaying);
    expect(await series('ptyws_pty_read_path{path="event_loop"}')).toBe(eventLoop + 1);
    run.proc.write(Buffer.from('\r'));
    await until(() => run.text().endsWith('END\r\n'));
    // The second stream is read on the event loop: a reader whose relay died never starts another.
    expect(run.proc.relaying).toBe(false);
    expect(runningRelays(process.pid)).toEqual([]);
    expect(run.text().endsWith(seqText(1, 200000) + 'END\r\n')).toBe(true);
    await run.exit;
    expect(await series('ptyws_pty_read_path{path="event_loop"}')).toBe(eventLoop);
  }, 20_000);

  it('reads for one reader only: a second one hands the stream back to the event loop, and with two none starts', async () => {
    const run = await start(['/bin/sh', '-c', 'seq 1 400000; read _; seq 1 300000; echo END']);
    run.proc.readers(1);
    await until(() => run.proc.relaying);
    run.proc.readers(2);
    await until(() => !run.proc.relaying);
    await until(() => run.text().endsWith('400000\r\n'));
    expect(run.text() === seqText(1, 400000)).toBe(true);
    // The second stream, with two readers: the event loop reads all of it.
    let relayedAgain = false;
    const sample = setInterval(() => (relayedAgain ||= run.proc.relaying), 1);
    run.proc.write(Buffer.from('\r'));
    await until(() => run.text().endsWith('END\r\n'));
    clearInterval(sample);
    expect(relayedAgain).toBe(false);
    expect(run.text().endsWith(seqText(1, 300000) + 'END\r\n')).toBe(true);
    await run.exit;
  }, 20_000);

  it('is not used when turned off (PTYWS_STREAM_RELAY=off)', async () => {
    const off = SpawnerPtyHost.find({ streamRelay: false });
    expect(off?.relayBinary).toBeUndefined();
    const run = await start(['/bin/sh', '-c', 'seq 1 300000'], off);
    await run.exit;
    expect(run.relayed()).toBe(false);
    expect(run.text() === seqText(1, 300000)).toBe(true);
  }, 20_000);
});
