import type { AgentDeps } from './session-manager';

/**
 * What a SessionManager under test is configured with beyond its stores and host: `/bin/sh` at
 * 80×24, one controller and eight observers, keyframes every 5 s or 100 frames, the product's 5 ms
 * output coalescing, and retention that keeps a test's whole log. For tests that drive the owner
 * through SessionControl (the contract suite, control over NATS).
 */
export const TEST_AGENT_SETTINGS: Pick<AgentDeps, 'retention' | 'closedSessionTtlMs' | 'defaults' | 'runtime'> = {
  retention: { minFrames: 1000, minAgeMs: 60_000 },
  closedSessionTtlMs: 60_000,
  defaults: { shell: '/bin/sh', defaultCols: 80, defaultRows: 24 },
  runtime: {
    caps: { maxControllers: 1, maxObservers: 8 },
    keyframeIntervalMs: 5000,
    keyframeIntervalFrames: 100,
    outputCoalesceMs: 5,
    outputFrameBytes: 32768,
    logger: { info() {}, warn() {} },
  },
};
