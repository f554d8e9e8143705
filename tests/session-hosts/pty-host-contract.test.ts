/**
 * The PtyHost contract (packages/testkit) against every backend this machine can run: native
 * node-pty always, tmux and screen when installed (CI installs both: .ci/apt-packages.txt).
 */
import type { SessionSpec } from '@pty-ws/ports';
import { SessionHosts, type ManagedBackend } from '@pty-ws/pty-agent';
import { ptyHostContract } from '@pty-ws/testkit/contracts';
import { INSTALLED, privateAgent } from './support';

jest.setTimeout(30_000);

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/tmp', TERM: 'xterm-256color' };

function fixture(backend: 'native' | ManagedBackend) {
  return async () => {
    const agent = privateAgent();
    const host = new SessionHosts({ stateDir: agent.stateDir, agentId: agent.agentId });
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

ptyHostContract('native (node-pty)', fixture('native'));
for (const backend of ['tmux', 'screen'] as const) {
  if (INSTALLED.includes(backend)) ptyHostContract(backend, fixture(backend));
  else describe.skip(`PtyHost contract: ${backend} (not installed)`, () => it.todo('needs the program on PATH'));
}
