import { execFileSync } from 'node:child_process';
import type { PtyProcess, SessionSpec } from '@pty-ws/ports';
import { NodePtyHost } from '@pty-ws/pty-agent';

const host = new NodePtyHost();
const spec = (argv: string[]): SessionSpec => ({
  argv,
  cwd: '/tmp',
  env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  size: { cols: 80, rows: 24 },
  backend: 'native',
  sessionClass: 'direct',
});

/** Runs argv to exit; counts output bytes, optionally stalling the event loop on each chunk. */
function run(argv: string[], stallMs = 0): Promise<{ bytes: number; exitMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const proc = host.spawn('t', spec(argv));
    let bytes = 0;
    proc.onData((d) => {
      bytes += d.length;
      const until = Date.now() + stallMs;
      while (Date.now() < until);
    });
    proc.onExit(() => resolve({ bytes, exitMs: Date.now() - started }));
  });
}

describe('NodePtyHost drains output before reporting exit', () => {
  // Other PTYs open at the same time is the case that used to delay or truncate.
  let others: PtyProcess[] = [];
  beforeAll(() => {
    others = [host.spawn('a', spec(['/bin/sh'])), host.spawn('b', spec(['/bin/sh']))];
  });
  afterAll(() => others.forEach((p) => p.kill()));

  // The PTY turns each \n into \r\n: one extra byte per line.
  const expected = execFileSync('seq', ['1', '60000']).length + 60000;

  it('delivers every byte of a large burst that ends in exit', async () => {
    for (let i = 0; i < 3; i++) expect((await run(['/bin/sh', '-c', 'seq 1 60000'])).bytes).toBe(expected);
  });

  it('delivers every byte even when the event loop is slow to read', async () => {
    expect((await run(['/bin/sh', '-c', 'seq 1 60000'], 3)).bytes).toBe(expected);
  });

  it('reports exit promptly while other PTYs stay open', async () => {
    const { exitMs } = await run(['/bin/sh', '-c', 'exit 0']);
    expect(exitMs).toBeLessThan(2000);
  });

  it('holds output and exit for a listener that attaches late (after real I/O)', async () => {
    const proc = await host.spawn('late', spec(['/bin/sh', '-c', 'echo early-bird']));
    await new Promise((r) => setTimeout(r, 300)); // the process has printed and exited by now
    let text = '';
    const exited = new Promise<void>((resolve) => proc.onExit(() => resolve()));
    proc.onData((d) => (text += Buffer.from(d).toString()));
    await exited;
    expect(text).toContain('early-bird');
  });

  it('gives held output to every listener of the same tick (runtime and live-shell executor), before the exit', async () => {
    const proc = await host.spawn('two', spec(['/bin/sh', '-c', 'echo first-prompt']));
    await new Promise((r) => setTimeout(r, 300));
    const seen: string[] = [];
    let a = '';
    let b = '';
    proc.onData((d) => (a += Buffer.from(d).toString()));
    const exited = new Promise<void>((resolve) =>
      proc.onExit(() => {
        seen.push(`exit after ${a.includes('first-prompt') ? 'output' : 'nothing'}`);
        resolve();
      }),
    );
    proc.onData((d) => (b += Buffer.from(d).toString()));
    await exited;
    expect(a).toContain('first-prompt');
    expect(b).toContain('first-prompt');
    expect(seen).toEqual(['exit after output']);
  });
});
