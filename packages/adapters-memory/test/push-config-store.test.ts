import { pushConfigStoreContract } from '../../testkit/src/contracts';
import { MemoryPushConfigStore } from '../src';

pushConfigStoreContract('memory', async () => ({ store: new MemoryPushConfigStore(), cleanup: async () => {} }));
