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
  proc: PtyProcess & { relaying: boolean; readers(count: number): void; pause(): void; resume(): void };
  text: () => string;
  /** The last characters of the text (the whole one is costly to look at while it grows). */
  tail: () => string;
  /** Each `stream`'s end (STREAM): its last line, and where its `streamed` line ends in the text. */
  streamed: () => { last: number; end: number }[];
  exit: Promise<PtyExit>;
  /** Whether the relay was seen reading, sampled every millisecond. */
  relayed: () => boolean;
}

/** The programs still running: a test that failed must not leave its program waiting (nor jest with it). */
const running = new Set<Run>();

async function start(argv: string[], host = relayHost): Promise<Run> {
  const proc = (await host.spawn('t', spec(argv))) as Run['proc'];
  let text = '';
  let tail = '';
  const streamed: { last: number; end: number }[] = [];
  let relayed = false;
  const sample = setInterval(() => (relayed ||= proc.relaying), 1);
  proc.onData((d) => {
    const chunk = Buffer.from(d).toString('latin1');
    text += chunk;
    const seen = tail + chunk;
    for (const m of seen.matchAll(/streamed (\d+)\r\n/g)) {
      const end = text.length - seen.length + (m.index ?? 0) + m[0].length;
      if (end > (streamed.at(-1)?.end ?? 0)) streamed.push({ last: Number(m[1]), end });
    }
    tail = seen.slice(-64);
  });
  const exit = new Promise<PtyExit>((resolve) => proc.onExit(resolve)).finally(() => {
    clearInterval(sample);
    running.delete(run);
  });
  const run: Run = { proc, text: () => text, tail: () => tail, streamed: () => streamed, exit, relayed: () => relayed };
  running.add(run);
  return run;
}

afterEach(async () => {
  for (const run of running) {
    run.proc.resume();
    run.proc.kill('SIGKILL');
    await run.exit;
  }
});

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

/*
 * The relay starts once the event loop has read STREAM_BYTES (256 KiB) within STREAM_WINDOW_MS
 * (50 ms). A fixed burst made that a matter of the machine's speed: on a loaded one the event loop
 * read a few MB/s, and a 1.3 MB burst could end before any window was full. So a session that must
 * be read by the relay streams until the test has seen the relay reading, for up to
 * STREAM_DEADLINE_MS, and the test asserts that it was.
 */
/** How long a session streams for its relay to start; seen within 1.3 s (2.6 MB) with four CPU hogs on two cores. */
const STREAM_DEADLINE_MS = 15_000;
/** The lines a `stream` prints at most (~21 MB): a relay that never starts must not fill the test's memory. */
const STREAM_CAP = 3_000_000;
/**
 * A shell function for a session's program: `stream STOP` prints lines of `seq`, on from the last
 * one a `stream` printed, 100 000 at a time until the file STOP exists (or STREAM_CAP lines), then
 * `streamed N`, N its last line.
 */
const STREAM = `i=0; stream() { while [ ! -e "$1" ] && [ "$i" -lt ${STREAM_CAP} ]; do seq $((i + 1)) $((i + 100000)); i=$((i + 100000)); done; echo "streamed $i"; }`;

const stopDir = mkdtempSync(join(tmpdir(), 'ptyws-stream-relay-'));
afterAll(() => rmSync(stopDir, { recursive: true, force: true }));
let stops = 0;

/** A stop file for a `stream`, not there yet. */
function stopFile(): string {
  return join(stopDir, `stop-${++stops}`);
}

/** Ends the `stream` waiting for `stop` (after the lines it is printing). */
function stopStream(stop: string): void {
  writeFileSync(stop, '');
}

/** Whether `seen` (the relay reading) came true within STREAM_DEADLINE_MS, while the session streams. */
function relayStarts(seen: () => boolean): Promise<boolean> {
  return until(seen, STREAM_DEADLINE_MS).then(
    () => true,
    () => false,
  );
}

/** What a `stream` that started after line `from - 1` and ended at line `to` printed. */
function streamedText(from: number, to: number): string {
  return `${seqText(from, to)}streamed ${to}\r\n`;
}

/** The last line of the `index`th `stream`, once it has ended. */
async function streamEnd(run: Run, index = 0): Promise<number> {
  await until(() => run.streamed().length > index);
  return (run.streamed()[index] as { last: number }).last;
}

describe('the stream relay: a streaming session is read by a process of its own', () => {
  it('takes over while a session streams and hands back when it is quiet, every byte once and in order', async () => {
    // Two streams, the second once the test saw the relay hand back after the first (a pause of
    // the test's choosing: a fixed sleep raced the quiet time on a loaded machine), then the exit
    // right after the second: the relay is started twice, and stopped once on quiet and once by the end.
    const [first, second] = [stopFile(), stopFile()];
    const run = await start([
      '/bin/sh',
      '-c',
      `stty -echo; ${STREAM}; stream '${first}'; read _; stream '${second}'; exit 4`,
    ]);
    expect(await relayStarts(run.relayed)).toBe(true);
    stopStream(first);
    const end = await streamEnd(run);
    // Quiet for RELAY_QUIET_MS (2 s), looked at every 250 ms: a relay that never hands back fails here.
    await until(() => !run.proc.relaying);
    let relayedAgain = false;
    const sample = setInterval(() => (relayedAgain ||= run.proc.relaying), 1);
    run.proc.write(Buffer.from('\r'));
    const again = await relayStarts(() => relayedAgain);
    clearInterval(sample);
    expect(again).toBe(true);
    stopStream(second);
    expect(await run.exit).toEqual({ exitCode: 4, signal: null });
    const last = await streamEnd(run, 1);
    expect(run.text() === streamedText(1, end) + streamedText(end + 1, last)).toBe(true);
  }, 60_000);

  it('hands the agent its reads gathered, not one 4 KiB tty read at a time (each woke the agent)', async () => {
    const stop = stopFile();
    const run = await start(['/bin/sh', '-c', `${STREAM}; stream '${stop}'; seq 1 500000`]);
    const sizes: number[] = [];
    run.proc.onData((d) => {
      if (run.proc.relaying) sizes.push(d.length);
    });
    expect(await relayStarts(run.relayed)).toBe(true);
    stopStream(stop);
    await run.exit;
    expect(sizes.length).toBeGreaterThan(10);
    sizes.sort((a, b) => a - b);
    expect(sizes[sizes.length >> 1]).toBeGreaterThan(16 * 1024);
  }, 45_000);

  it("leaves the agent's pty master non-blocking (keystrokes are written on the event loop)", async () => {
    const stop = stopFile();
    const run = await start(['/bin/sh', '-c', `${STREAM}; stream '${stop}'; read _`]);
    expect(await relayStarts(() => run.proc.relaying)).toBe(true);
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
    stopStream(stop);
    const end = await streamEnd(run);
    expect(run.text() === streamedText(1, end)).toBe(true);
    run.proc.write(Buffer.from('\r'));
    await run.exit;
  }, 45_000);

  it('holds output while paused, relay or not, and delivers the rest on resume', async () => {
    const stop = stopFile();
    const run = await start(['/bin/sh', '-c', `${STREAM}; stream '${stop}'`]);
    expect(await relayStarts(() => run.proc.relaying)).toBe(true);
    run.proc.pause();
    await new Promise((r) => setTimeout(r, 50));
    const held = run.text().length;
    await new Promise((r) => setTimeout(r, 300));
    expect(run.text().length).toBe(held);
    stopStream(stop);
    run.proc.resume();
    await run.exit;
    expect(run.text() === streamedText(1, await streamEnd(run))).toBe(true);
  }, 45_000);

  it.each([
    ['the relay', relayHost, 200_000],
    ['the event loop', SpawnerPtyHost.find({ streamRelay: false }), 6_000],
  ])(
    'a program ending while its output is held loses nothing read by %s: the close hands it over',
    async (reader, host, left) => {
      // Held this close to the end, the program still finishes: what it printed last waits in the
      // relay's buffer and pipe (~330 KiB), or in the tty (~12 KiB). The hold outlasts the drain's
      // limit (DRAIN_SAFETY_MS, 5 s): the session closes while it is still held. The body comes
      // right after a `stream` that went on until the relay read (with no relay, none: its stop is
      // there from the start), so the relay reads the body too.
      const dir = mkdtempSync(join(tmpdir(), 'ptyws-held-exit-'));
      const file = join(dir, 'body');
      const body = seqText(1, 1_000_000);
      writeFileSync(file, body, 'latin1');
      const stop = stopFile();
      if (host !== relayHost) stopStream(stop);
      const run = await start(['/bin/sh', '-c', `${STREAM}; stream '${stop}'; stty -opost; cat '${file}'`], host);
      let held = false;
      run.proc.onData(() => {
        const bodyStart = run.streamed()[0]?.end;
        if (held || bodyStart === undefined || run.text().length < bodyStart + body.length - left) return;
        held = true;
        run.proc.pause();
      });
      let exited = false;
      void run.exit.then(() => (exited = true));
      if (host === relayHost) expect(await relayStarts(run.relayed)).toBe(true);
      stopStream(stop);
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
      const streamed = streamedText(1, await streamEnd(run));
      expect(run.text().length).toBe(streamed.length + body.length);
      expect(run.text() === streamed + body).toBe(true);
      run.proc.resume();
    },
    45_000,
  );

  it('goes back to the event loop for good when its relay is killed, and the session goes on', async () => {
    // Counted from here: a session of another test that is still running counts too.
    const failures = await series('ptyws_helper_failures_total{where="stream_relay"}');
    const [eventLoop, relaying] = [
      await series('ptyws_pty_read_path{path="event_loop"}'),
      await series('ptyws_pty_read_path{path="stream_relay"}'),
    ];
    const stop = stopFile();
    const run = await start(['/bin/sh', '-c', `${STREAM}; stream '${stop}'; read _; seq 1 200000; echo END`]);
    // Killed while the session streams: no race with its hand-back after 2 s of quiet.
    expect(await relayStarts(run.relayed)).toBe(true);
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
    stopStream(stop);
    await streamEnd(run);
    run.proc.write(Buffer.from('\r'));
    await until(() => run.tail().endsWith('END\r\n'));
    // The second stream is read on the event loop: a reader whose relay died never starts another.
    expect(run.proc.relaying).toBe(false);
    expect(runningRelays(process.pid)).toEqual([]);
    expect(run.text().endsWith(seqText(1, 200000) + 'END\r\n')).toBe(true);
    await run.exit;
    expect(await series('ptyws_pty_read_path{path="event_loop"}')).toBe(eventLoop);
  }, 45_000);

  it('reads for one reader only: a second one hands the stream back to the event loop, and with two none starts', async () => {
    const stop = stopFile();
    const run = await start(['/bin/sh', '-c', `${STREAM}; stream '${stop}'; read _; seq 1 300000; echo END`]);
    run.proc.readers(1);
    expect(await relayStarts(() => run.proc.relaying)).toBe(true);
    run.proc.readers(2);
    await until(() => !run.proc.relaying);
    stopStream(stop);
    const end = await streamEnd(run);
    expect(run.text() === streamedText(1, end)).toBe(true);
    // The second stream, with two readers: the event loop reads all of it.
    let relayedAgain = false;
    const sample = setInterval(() => (relayedAgain ||= run.proc.relaying), 1);
    run.proc.write(Buffer.from('\r'));
    await until(() => run.tail().endsWith('END\r\n'));
    clearInterval(sample);
    expect(relayedAgain).toBe(false);
    expect(run.text().endsWith(seqText(1, 300000) + 'END\r\n')).toBe(true);
    await run.exit;
  }, 45_000);

  it('is not used when turned off (PTYWS_STREAM_RELAY=off)', async () => {
    const off = SpawnerPtyHost.find({ streamRelay: false });
    expect(off?.relayBinary).toBeUndefined();
    const run = await start(['/bin/sh', '-c', 'seq 1 300000'], off);
    await run.exit;
    expect(run.relayed()).toBe(false);
    expect(run.text() === seqText(1, 300000)).toBe(true);
  }, 20_000);
});
