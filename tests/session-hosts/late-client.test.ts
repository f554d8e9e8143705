/**
 * A program that prints and exits while its multiplexer has not drawn that output yet (a busy
 * machine: the multiplexer's server is simply not scheduled). The exit must wait until the
 * agent's client has drawn the program's last line; muting on the status file alone loses it
 * (seen in CI with screen). The server is held with SIGSTOP to make that lateness certain.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PtyExit, SessionSpec } from '@pty-ws/ports';
import { SessionHosts, type AgentPaths, type ManagedBackend } from '@pty-ws/pty-agent';
import { delay, waitUntil } from '@pty-ws/testkit';
import { INSTALLED, privateAgent } from './support';

jest.setTimeout(30_000);

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/tmp', TERM: 'xterm-256color' };

/** Pids of `pgrep args`, none when nothing matches (pgrep then exits 1). */
function pgrep(args: string[]): string[] {
  try {
    return execFileSync('pgrep', args).toString().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The multiplexer server behind the agent's client. The client is a child of the agent's spawner
 * (a child of this process) or, where node-pty forks the agent, of this process itself.
 */
function serverPid(backend: ManagedBackend, paths: AgentPaths, name: string): number {
  let out: string;
  if (backend === 'tmux') {
    out = execFileSync('tmux', ['-S', paths.tmuxSocket, 'display-message', '-p', '#{pid}'], { env }).toString();
  } else {
    const ours = new Set([String(process.pid), ...pgrep(['-P', String(process.pid)])]);
    const parentOf = (pid: string): string => {
      try {
        return execFileSync('ps', ['-o', 'ppid=', '-p', pid]).toString().trim();
      } catch {
        return ''; // gone meanwhile
      }
    };
    const client = pgrep(['-f', name]).find((pid) => ours.has(parentOf(pid)));
    if (!client) throw new Error(`no ${backend} client of ${name} found`);
    out = execFileSync('pgrep', ['-P', client]).toString();
  }
  const pid = Number(out.trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no ${backend} server found: ${JSON.stringify(out)}`);
  return pid;
}

const backends = INSTALLED.length > 0 ? describe.each(INSTALLED) : describe.skip.each(['tmux' as ManagedBackend]);

backends('%s: a multiplexer that draws late', (backend) => {
  const agent = privateAgent();
  const hosts = new SessionHosts({ stateDir: agent.stateDir, agentId: agent.agentId });
  afterAll(() => agent.cleanup());

  it("still delivers the program's last output before its exit", async () => {
    const name = `late-${backend}-${process.pid}`;
    const spec: SessionSpec = {
      argv: ['/bin/sh', '-c', 'sleep 0.3; echo printed-then-exited; exit 4'],
      cwd: '/tmp',
      env,
      size: { cols: 80, rows: 24 },
      backend,
      sessionClass: 'managed',
    };
    const proc = await hosts.spawn(name, spec);
    let text = '';
    let exit: PtyExit | undefined;
    let textAtExit = '';
    proc.onData((d) => (text += Buffer.from(d).toString('utf8')));
    proc.onExit((e) => {
      exit = e;
      textAtExit = text;
    });
    // Held before the program prints, and until well after its status file is there.
    const server = serverPid(backend, agent.paths, name);
    process.kill(server, 'SIGSTOP');
    try {
      // tmux writes the status from its own hook: there, the held server writes nothing.
      const status = path.join(agent.paths.screenRun, `${name}.status`);
      if (backend === 'screen') await waitUntil(() => existsSync(status), 10_000, 'the status file', 10);
      await delay(500);
    } finally {
      process.kill(server, 'SIGCONT');
    }
    await waitUntil(() => exit !== undefined, 10_000, 'the exit', 10);
    expect(exit).toEqual({ exitCode: 4, signal: null });
    expect(textAtExit).toContain('printed-then-exited');
  });
});
