import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { PtyExit, PtyProcess, SessionSpec } from '@pty-ws/ports';
import { NodePtyHost, SpawnerPtyHost } from '@pty-ws/pty-agent';

const found = SpawnerPtyHost.find();
if (!found) throw new Error('the spawner cannot run here: is the build there, and setsid and stty on PATH?');
const host: SpawnerPtyHost = found;

const spec = (argv: string[], size = { cols: 80, rows: 24 }): SessionSpec => ({
  argv,
  cwd: '/tmp',
  env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
  size,
  backend: 'native',
  sessionClass: 'direct',
});

interface Run {
  proc: PtyProcess;
  text: () => string;
  exit: Promise<PtyExit>;
}

async function start(argv: string[], size?: { cols: number; rows: number }): Promise<Run> {
  const proc = await host.spawn('t', spec(argv, size));
  let text = '';
  proc.onData((d) => (text += Buffer.from(d).toString('latin1')));
  return { proc, text: () => text, exit: new Promise((resolve) => proc.onExit(resolve)) };
}

async function until(what: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function parentOf(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
}

describe('SpawnerPtyHost: native sessions without forking the agent', () => {
  it('starts the program in the spawner process, a child of the agent, not in the agent', async () => {
    const run = await start(['/bin/sh', '-c', 'read _']);
    const spawner = parentOf(run.proc.pid);
    expect(spawner).not.toBe(process.pid);
    expect(parentOf(spawner)).toBe(process.pid);
    run.proc.write(Buffer.from('\r'));
    await run.exit;
  });

  it('delivers every byte of a burst before the exit, with its status', async () => {
    const expected = execFileSync('seq', ['1', '60000']).length + 60000; // \n becomes \r\n
    const run = await start(['/bin/sh', '-c', 'seq 1 60000; exit 5']);
    expect(await run.exit).toEqual({ exitCode: 5, signal: null });
    expect(run.text().length).toBe(expected);
  });

  it('reports a signal as node-pty does: no exit code, the signal number', async () => {
    const run = await start(['/bin/sh', '-c', 'kill -9 $$']);
    expect(await run.exit).toEqual({ exitCode: null, signal: 9 });
  });

  it('gives the program a controlling terminal: ^C interrupts the foreground job, not the shell', async () => {
    const run = await start(['/bin/sh']);
    run.proc.write(Buffer.from('sleep 30; echo sle""pt\r'));
    await new Promise((r) => setTimeout(r, 300));
    run.proc.write(Buffer.from('\x03'));
    run.proc.write(Buffer.from('tty; echo al""ive; exit 0\r'));
    expect(await run.exit).toEqual({ exitCode: 0, signal: null });
    expect(run.text()).toMatch(/\/dev\/pts\/\d+/);
    expect(run.text()).toContain('alive');
    expect(run.text()).not.toContain('slept');
  });

  it('opens the tty at the requested size and resizes it', async () => {
    const run = await start(['/bin/sh', '-c', 'stty size; read _; stty size'], { cols: 120, rows: 30 });
    await until(() => run.text().includes('30 120'));
    run.proc.resize({ cols: 100, rows: 40 });
    run.proc.write(Buffer.from('\r'));
    await run.exit;
    expect(run.text()).toContain('40 100');
  });

  it("sets the tty's modes and the environment as node-pty did when it forked the program", async () => {
    const argv = ['/bin/sh', '-c', 'stty -a; echo PWD=$PWD TERM=$TERM'];
    const run = await start(argv);
    await run.exit;
    const forked = new NodePtyHost().spawn('ref', spec(argv));
    let reference = '';
    forked.onData((d) => (reference += Buffer.from(d).toString('latin1')));
    await new Promise((resolve) => forked.onExit(resolve));
    expect(run.text()).toBe(reference);
    expect(run.text()).toContain('PWD=/tmp TERM=xterm-256color');
  });

  it('writes a paste larger than the tty takes at once, whole and in order', async () => {
    const paste = Buffer.alloc(200_000, 'x');
    const run = await start(['/bin/sh', '-c', 'stty -echo -icanon; head -c 200000 | wc -c']);
    await new Promise((r) => setTimeout(r, 200)); // stty has run
    run.proc.write(paste);
    await run.exit;
    expect(run.text()).toMatch(/\b200000\b/);
  });

  it('holds output while paused and delivers it on resume', async () => {
    const run = await start(['/bin/sh', '-c', 'read _; seq 1 20000']);
    run.proc.pause?.();
    run.proc.write(Buffer.from('\r'));
    await new Promise((r) => setTimeout(r, 300));
    const whilePaused = run.text().length;
    expect(whilePaused).toBeLessThan(10_000); // the tty holds the rest; `seq` waits for room
    run.proc.resume?.();
    await run.exit;
    expect(run.text()).toContain('\r\n20000\r\n');
  });

  it('reports a missing program as a shell does (status 127, a message on the terminal)', async () => {
    const run = await start(['/nonexistent/program']);
    expect(await run.exit).toEqual({ exitCode: 127, signal: null });
    expect(run.text()).toContain('/nonexistent/program');
  });

  it('survives its spawner dying: the running program still reports its end, and the next spawn starts a new spawner', async () => {
    const run = await start(['/bin/sh', '-c', 'read _']);
    const spawner = parentOf(run.proc.pid);
    process.kill(spawner, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    run.proc.kill('SIGKILL');
    expect(await run.exit).toEqual({ exitCode: null, signal: null }); // the status went with the spawner
    const next = await start(['/bin/sh', '-c', 'read _; exit 3']);
    expect(parentOf(next.proc.pid)).not.toBe(spawner);
    next.proc.write(Buffer.from('\r'));
    expect(await next.exit).toEqual({ exitCode: 3, signal: null });
  });
});
