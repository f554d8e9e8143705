import { pushConfigStoreContract } from '@pty-ws/testkit/contracts';
import { MemoryPushConfigStore } from '../src';

pushConfigStoreContract('memory', async () => ({ store: new MemoryPushConfigStore(), cleanup: async () => {} }));
