import {
  contextSessionStoreContract,
  frameLogContract,
  membershipStoreContract,
  sessionRegistryContract,
  taskStoreContract,
  tokenStoreContract,
} from '@pty-ws/testkit/contracts';
import {
  MemoryContextSessionStore,
  MemoryFrameLog,
  MemoryMembershipStore,
  MemorySessionRegistry,
  MemoryTaskStore,
  MemoryTokenStore,
} from '../src';

const noCleanup = async (): Promise<void> => {};

// The contract's throwing-subscriber case is expected; keep it out of the test output.
frameLogContract('memory', async () => ({
  log: new MemoryFrameLog({ onSubscriberError: () => {} }),
  cleanup: noCleanup,
}));
sessionRegistryContract('memory', async () => ({ registry: new MemorySessionRegistry(), cleanup: noCleanup }));
tokenStoreContract('memory', async () => ({ store: new MemoryTokenStore(), cleanup: noCleanup }));
taskStoreContract('memory', async () => ({ store: new MemoryTaskStore(), cleanup: noCleanup }));
membershipStoreContract('memory', async () => ({ store: new MemoryMembershipStore(), cleanup: noCleanup }));
contextSessionStoreContract('memory', async () => ({ store: new MemoryContextSessionStore(), cleanup: noCleanup }));
