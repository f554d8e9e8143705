/**
 * The PtyHost contract (packages/testkit) against every backend this machine can run: native
 * always (started by the agent's spawner, and node-pty forking the agent, the fallback), tmux and
 * screen when installed (CI installs both: .ci/apt-packages.txt).
 */
import { readFileSync } from 'node:fs';
import type { PtyHost, SessionSpec } from '@pty-ws/ports';
import { NodePtyHost, SessionHosts, SpawnerPtyHost, type ManagedBackend } from '@pty-ws/pty-agent';
import { ptyHostContract } from '@pty-ws/testkit/contracts';
import { INSTALLED, privateAgent } from './support';

jest.setTimeout(30_000);

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/tmp', TERM: 'xterm-256color' };

function fixture(backend: 'native' | ManagedBackend, only?: () => PtyHost) {
  return async () => {
    const agent = privateAgent();
    const host = only?.() ?? new SessionHosts({ stateDir: agent.stateDir, agentId: agent.agentId });
    return {
      host,
      spec: (argv: string[], size: SessionSpec['size']): SessionSpec => ({
        argv,
        cwd: '/tmp',
        env,
        size,
        backend,
        sessionClass: backend === 'native' ? 'direct' : 'managed',
      }),
      cleanup: async () => agent.cleanup(),
    };
  };
}

ptyHostContract('native (the spawner)', fixture('native'));
ptyHostContract(
  'native (node-pty forking the agent: the fallback)',
  fixture('native', () => new NodePtyHost()),
);

describe('native sessions', () => {
  it("are started by the agent's spawner, not by forking the agent", async () => {
    const agent = privateAgent();
    const hosts = new SessionHosts({ stateDir: agent.stateDir, agentId: agent.agentId });
    expect(hosts.native).toBeInstanceOf(SpawnerPtyHost);
    const proc = await hosts.spawn('s', {
      argv: ['/bin/sh', '-c', 'read _'],
      cwd: '/tmp',
      env,
      size: { cols: 80, rows: 24 },
      backend: 'native',
      sessionClass: 'direct',
    });
    const parentOf = (pid: number): number =>
      Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
    const spawner = parentOf(proc.pid);
    expect(spawner).not.toBe(process.pid);
    expect(parentOf(spawner)).toBe(process.pid);
    const exited = new Promise((resolve) => proc.onExit(resolve));
    proc.write(Buffer.from('\r'));
    await exited;
    await agent.cleanup();
  });
});
for (const backend of ['tmux', 'screen'] as const) {
  if (INSTALLED.includes(backend)) ptyHostContract(backend, fixture(backend));
  else describe.skip(`PtyHost contract: ${backend} (not installed)`, () => it.todo('needs the program on PATH'));
}
