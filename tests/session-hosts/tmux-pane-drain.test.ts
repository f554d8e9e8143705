/**
 * tmux 3.3a closes a pane's pty when the pane's process exits and nothing is readable at that
 * instant; output the program wrote last can still be in the kernel's flip buffer then, and is
 * lost (the PtyHost contract's `seq 1 20000` lost its tail in ~1 run in 10 on a loaded machine).
 * So the pane's process is a wrapper that outlives the program until tmux has parsed all of its
 * output. The loss itself depends on scheduling; what this test pins down is the wrapper: with
 * the tmux server held (SIGSTOP), the program exits but the pane's process stays, and once the
 * server runs again the whole tail arrives before the exit.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PtyExit } from '@pty-ws/ports';
import { SessionHosts } from '@pty-ws/pty-agent';
import { procStat, visibleText } from '@pty-ws/pty-agent/internal';
import { delay, waitUntil } from '@pty-ws/testkit';
import { INSTALLED, privateAgent } from './support';

jest.setTimeout(30_000);

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/tmp', TERM: 'xterm-256color' };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function parentOf(pid: number): number {
  return Number(procStat(pid)[1]);
}

const suite = INSTALLED.includes('tmux') ? describe : describe.skip;

suite('tmux: the pane outlives its program until tmux has read all of its output', () => {
  const agent = privateAgent();
  const hosts = new SessionHosts({ stateDir: agent.stateDir, agentId: agent.agentId });
  afterAll(() => agent.cleanup());

  it('holds the pane while the server is stopped, then delivers the whole tail before the exit', async () => {
    // The program prints once the test has stopped the server, and little enough for the stopped
    // server's pty to take all of it (~18 KiB, newlines doubled), so it can exit.
    const go = path.join(agent.stateDir, 'go');
    const script = `while [ ! -e ${go} ]; do sleep 0.02; done; seq 1 1000; echo tail-marker-end; exit 6`;
    const proc = await hosts.spawn(`drain-${process.pid}`, {
      argv: ['/bin/sh', '-c', script],
      cwd: '/tmp',
      env,
      size: { cols: 80, rows: 24 },
      backend: 'tmux',
      sessionClass: 'managed',
    });
    let raw = '';
    let exit: PtyExit | undefined;
    let rawAtExit = '';
    proc.onData((d) => (raw += Buffer.from(d).toString('utf8')));
    proc.onExit((e) => {
      exit = e;
      rawAtExit = raw;
    });

    // The pid is the program's own (what foreground-job checks read), not the wrapper's.
    expect(readFileSync(`/proc/${proc.pid}/cmdline`, 'utf8')).toContain('seq 1 1000');
    const server = Number(
      execFileSync('tmux', ['-S', agent.paths.tmuxSocket, 'display-message', '-p', '#{pid}'], { env }).toString(),
    );
    const pane = parentOf(proc.pid);
    expect(pane).not.toBe(server);

    process.kill(server, 'SIGSTOP');
    try {
      writeFileSync(go, '');
      await waitUntil(() => !alive(proc.pid), 10_000, 'the program to exit', 10);
      await delay(300);
      expect(alive(pane)).toBe(true);
    } finally {
      process.kill(server, 'SIGCONT');
    }

    await waitUntil(() => exit !== undefined, 10_000, 'the exit', 10);
    expect(exit).toEqual({ exitCode: 6, signal: null });
    expect(visibleText(rawAtExit).replace(/\r/g, '')).toMatch(/1000\ntail-marker-end/);
    await waitUntil(() => !alive(pane), 5_000, 'the wrapper to exit', 10);
  });
});
