import { loadConfig } from '@pty-ws/config';
import { MemoryFrameLog, MemorySessionRegistry, MemoryTokenStore } from '@pty-ws/adapters-memory';
import type { SessionControl } from '@pty-ws/ports';
import { compileClientFrameValidators } from '@pty-ws/protocol';
import { silentLogger, startEdge } from '@pty-ws/edge';
import { sessionHostCapabilities } from '@pty-ws/pty-agent';

/**
 * The client-frame schemas compile in ~180-300 ms. An edge compiles them before it listens, so the
 * first frame after a restart or a rolling deploy (usually a join) does not wait for them.
 */
it('an edge compiles the client-frame validators before it listens', async () => {
  const config = loadConfig({}, { host: '127.0.0.1', port: 0, grpcPort: 0, instanceId: 'warm', authEnabled: false });
  const edge = await startEdge({
    config,
    control: new Proxy({} as SessionControl, { get: () => () => Promise.reject(new Error('no owner')) }),
    log: new MemoryFrameLog(),
    registry: new MemorySessionRegistry(),
    tokens: new MemoryTokenStore(),
    logger: silentLogger,
    sessionHost: sessionHostCapabilities([]),
  });
  try {
    expect(compileClientFrameValidators()).toBe(false); // already compiled
  } finally {
    await edge.stop();
  }
});
