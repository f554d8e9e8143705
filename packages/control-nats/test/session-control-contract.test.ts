import { randomBytes } from 'node:crypto';
import { MemoryFrameLog, MemorySessionRegistry } from '@pty-ws/adapters-memory';
import { sessionControlContract } from '@pty-ws/testkit/contracts';
import { startOwnerOverNats } from './owner-over-nats';

/**
 * The owner over NATS request/reply, as a cluster edge calls it: the edge's NatsSessionControl,
 * the agent's serveSessionControl in front of a SessionManager (the direct form: pty-agent's tests).
 * Log and registry are shared in memory here; only control goes over NATS.
 */
sessionControlContract('over NATS', async () => {
  const instanceId = 'inst.contract';
  const log = new MemoryFrameLog();
  const owner = await startOwnerOverNats({
    prefix: `ptywstest_${randomBytes(4).toString('hex')}`,
    agentId: 'agent-contract',
    instanceId,
    log,
    registry: new MemorySessionRegistry(),
  });
  return { control: owner.control, log, instanceId, cleanup: () => owner.stop() };
});
