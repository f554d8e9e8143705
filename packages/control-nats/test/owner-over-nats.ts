import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  MemoryMembershipStore,
  MemoryTaskStore,
  type MemoryFrameLog,
  type MemorySessionRegistry,
} from '@pty-ws/adapters-memory';
import { NatsSessionControl, serveSessionControl, type AgentServer } from '@pty-ws/control-nats';
import type { Clock } from '@pty-ws/ports';
import { NodePtyHost, SessionManager, ShellTaskExecutor, TaskService } from '@pty-ws/pty-agent';
import { TEST_AGENT_SETTINGS } from '@pty-ws/pty-agent/internal';

const NATS_URL = process.env['PTYWS_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

export interface OwnerOverNats {
  agentNc: NatsConnection;
  edgeNc: NatsConnection;
  manager: SessionManager;
  server: AgentServer;
  /** The edge's side: what a cluster edge calls. */
  control: NatsSessionControl;
  stop(): Promise<void>;
}

/**
 * A session owner behind NATS request/reply, as a cluster runs it: a SessionManager served by
 * serveSessionControl on one connection, reached through NatsSessionControl on another. The log
 * and registry are shared in memory; only control goes over NATS.
 */
export async function startOwnerOverNats(opts: {
  prefix: string;
  agentId: string;
  instanceId: string;
  log: MemoryFrameLog;
  registry: MemorySessionRegistry;
  edgeTimeoutMs?: number;
  clock?: Clock;
}): Promise<OwnerOverNats> {
  const agentNc = await connect({ servers: NATS_URL, name: 'test-agent' });
  const edgeNc = await connect({ servers: NATS_URL, name: 'test-edge' });
  const manager = new SessionManager({
    agentId: opts.agentId,
    instanceId: opts.instanceId,
    registry: opts.registry,
    log: opts.log,
    membershipStore: new MemoryMembershipStore(),
    ptyHost: new NodePtyHost(),
    tasks: new TaskService({ store: new MemoryTaskStore(), executor: new ShellTaskExecutor(10_000, 65536) }),
    ...TEST_AGENT_SETTINGS,
  });
  const server = serveSessionControl(agentNc, {
    prefix: opts.prefix,
    agentId: opts.agentId,
    instanceId: opts.instanceId,
    control: manager,
    ...(opts.edgeTimeoutMs !== undefined ? { edgeTimeoutMs: opts.edgeTimeoutMs } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  await agentNc.flush();
  const control = new NatsSessionControl(edgeNc, { prefix: opts.prefix, registry: opts.registry, timeoutMs: 5000 });
  return {
    agentNc,
    edgeNc,
    manager,
    server,
    control,
    stop: async () => {
      await server.stop();
      await manager.shutdown();
      await agentNc.close();
      await edgeNc.close();
    },
  };
}
