import { MemoryFrameLog, MemoryMembershipStore, MemorySessionRegistry, MemoryTaskStore } from '@pty-ws/adapters-memory';
import { sessionControlContract } from '@pty-ws/testkit/contracts';
import { NodePtyHost } from '../src/hosts/node-pty-host';
import { SessionManager } from '../src/session/session-manager';
import { TEST_AGENT_SETTINGS } from '../src/session/test-settings';
import { ShellTaskExecutor } from '../src/tasks/task-executor';
import { TaskService } from '../src/tasks/task-service';

/** The owner called in process, as a single-node edge does (the NATS form: control-nats' tests). */
sessionControlContract('direct (SessionManager)', async () => {
  const log = new MemoryFrameLog();
  const manager = new SessionManager({
    agentId: 'agent-direct',
    instanceId: 'inst-direct',
    registry: new MemorySessionRegistry(),
    log,
    membershipStore: new MemoryMembershipStore(),
    ptyHost: new NodePtyHost(),
    tasks: new TaskService({ store: new MemoryTaskStore(), executor: new ShellTaskExecutor(10_000, 65536) }),
    ...TEST_AGENT_SETTINGS,
  });
  return { control: manager, log, instanceId: 'inst-direct', cleanup: () => manager.shutdown() };
});
