import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MemoryFrameLog, MemoryMembershipStore, MemorySessionRegistry, MemoryTaskStore } from '@pty-ws/adapters-memory';
import { NatsSessionControl, serveSessionControl } from '@pty-ws/control-nats';
import { NodePtyHost, SessionManager, ShellTaskExecutor, TaskService } from '@pty-ws/pty-agent';
import { TEST_AGENT_SETTINGS } from '@pty-ws/pty-agent/internal';
import { sessionControlContract } from '@pty-ws/testkit/contracts';

const NATS_URL = process.env['PTYWS_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

/**
 * The owner over NATS request/reply, as a cluster edge calls it: the edge's NatsSessionControl,
 * the agent's serveSessionControl in front of a SessionManager (the direct form: pty-agent's tests).
 * Log and registry are shared in memory here; only control goes over NATS.
 */
sessionControlContract('over NATS', async () => {
  const prefix = `ptywstest_${randomBytes(4).toString('hex')}`;
  const instanceId = 'inst.contract';
  const log = new MemoryFrameLog();
  const registry = new MemorySessionRegistry();
  const agentNc: NatsConnection = await connect({ servers: NATS_URL, name: 'contract-agent' });
  const edgeNc: NatsConnection = await connect({ servers: NATS_URL, name: 'contract-edge' });
  const manager = new SessionManager({
    agentId: 'agent-contract',
    instanceId,
    registry,
    log,
    membershipStore: new MemoryMembershipStore(),
    ptyHost: new NodePtyHost(),
    tasks: new TaskService({ store: new MemoryTaskStore(), executor: new ShellTaskExecutor(10_000, 65536) }),
    ...TEST_AGENT_SETTINGS,
  });
  const server = serveSessionControl(agentNc, { prefix, agentId: 'agent-contract', instanceId, control: manager });
  await agentNc.flush();
  const control = new NatsSessionControl(edgeNc, { prefix, registry, timeoutMs: 5000 });
  return {
    control,
    log,
    instanceId,
    cleanup: async () => {
      await server.stop();
      await manager.shutdown();
      await agentNc.close();
      await edgeNc.close();
    },
  };
});
