import { hostname } from 'node:os';
import { CONFIG_VARIABLES, loadConfig } from '../src';

describe('loadConfig defaults', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual<Config>({
      host: '127.0.0.1',
      port: 8080,
      grpcPort: 8082,
      agentMetricsPort: 9464,
      gracePeriodS: 25,
      natsPrefix: 'ptyws',
      jetstreamReplicas: 1,
      dbSchema: 'ptyws',
      dependencyTimeoutMs: 800,
      instanceId: 'local',
      edgeId: expect.stringMatching(new RegExp(`-${process.pid}$`)) as unknown as string,
      agentId: expect.any(String) as unknown as string,
      authEnabled: true,
      pingIntervalMs: 30000,
      pongTimeoutMs: 90000,
      replayFrames: 1000,
      replayRetentionS: 86400,
      logMemoryBytes: 8388608,
      maxControllers: 4,
      maxObservers: 32,
      maxObserversPerPrincipal: 8,
      wsBufferBudget: 2147483648,
      keyframeIntervalS: 5,
      keyframeIntervalFrames: 100,
      defaultCols: 120,
      defaultRows: 30,
      maxFrameBytes: 131072,
      shell: '/bin/bash',
      outputCoalesceMs: 5,
      outputFrameBytes: 262144,
      mirrorThread: 'main',
      mirrorSleepS: 10,
      mirrorSleepS: 10,
      streamRelay: 'on',
      slowConsumerBytes: 1048576,
      logOutageBufferBytes: 67108864,
      logOutageGiveUpS: 120,
      taskTimeoutS: 600,
      taskOutputBytes: 65536,
      taskOutputHeadBytes: 8192,
      taskInputQuietMs: 1000,
      pushAttempts: 8,
      pushBackoffMs: 500,
      pushTimeoutMs: 5000,
      contextSessionIdleS: 900,
      closedSessionTtlS: 86400,
      logLevel: 'info',
      stateDir: `/tmp/pty-ws-${process.getuid?.() ?? 0}`,
      allowEnvOverride: [],
      transcriptSessionBytes: 256 * 1024 * 1024,
      transcriptAgentBytes: 2 * 1024 * 1024 * 1024,
      sessionMaxProcs: 0,
      sessionMaxMemoryBytes: 0,
      sessionMaxFileBytes: 0,
      sessionMaxOpenFiles: 0,
      connRatePerPrincipal: 30,
      connBurstPerPrincipal: 60,
      connRatePerInstance: 300,
      connBurstPerInstance: 600,
      apiRatePerPrincipal: 200,
      apiBurstPerPrincipal: 400,
      frameRatePerConn: 2000,
      inputBytesPerConn: 4194304,
      maxSockets: 10000,
      trustedProxies: [],
      allowedHosts: [],
      authFailureRatePerS: 10,
      authFailureBurst: 100,
      allowedOrigins: [],
      maxHttpRequests: 1024,
      pushAllowedHosts: [],
      mtlsScopes: ['pty:observe'],
      maxSessionsPerAgent: 256,
      maxSessionsPerInstance: 1024,
      maxConnsPerPrincipal: 256,
      maxConnsPerInstance: 20000,
      abuseRefusals: 100,
      abuseRefusalsPerS: 10,
    });
    expect(config).not.toHaveProperty('adminToken');
    expect(config).not.toHaveProperty('tlsCa');
    expect(config).not.toHaveProperty('auditLog');
  });

  it('derives agent and edge ids from the host name, folded into the id alphabet', () => {
    const config = loadConfig({});
    expect(config.agentId).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
    expect(config.edgeId).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
    if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,40}$/.test(hostname())) {
      expect(config.agentId).toBe(hostname());
      expect(config.edgeId).toBe(`${hostname()}-${process.pid}`);
    }
  });

  it('uses $SHELL as the default shell when it is absolute', () => {
    expect(loadConfig({ SHELL: '/usr/bin/zsh' }).shell).toBe('/usr/bin/zsh');
    expect(loadConfig({ SHELL: 'zsh' }).shell).toBe('/bin/bash');
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PTYWS_PORT: '', PTYWS_ADMIN_TOKEN: '', PTYWS_AUTH: '  ' });
    expect(config.port).toBe(8080);
    expect(config.adminToken).toBeUndefined();
    expect(config.authEnabled).toBe(true);
  });

  it('every documented default is what loadConfig produces', () => {
    const config = loadConfig({});
    for (const v of CONFIG_VARIABLES) {
      if (v.default.startsWith('<') || v.default.startsWith('$') || v.default.startsWith('(')) continue;
      const value = config[v.field];
      const text = typeof value === 'boolean' ? (value ? 'enabled' : 'disabled') : String(value);
      expect(`${v.name}=${text}`).toBe(`${v.name}=${v.default}`);
    }
  });
});

describe('loadConfig reads the environment', () => {
  it('reads every variable', () => {
    const config = loadConfig({
      PTYWS_HOST: '::1',
      PTYWS_PORT: '0',
      PTYWS_INSTANCE_ID: 'prod-1',
      PTYWS_EDGE_ID: 'edge.a',
      PTYWS_AGENT_ID: 'agent_b',
      PTYWS_AUTH: 'disabled',
      PTYWS_ADMIN_TOKEN: 'a-long-enough-admin-token',
      PTYWS_PING_INTERVAL_MS: '10',
      PTYWS_PONG_TIMEOUT_MS: '11',
      PTYWS_REPLAY_FRAMES: '5',
      PTYWS_REPLAY_RETENTION_S: '0',
      PTYWS_MAX_CONTROLLERS: '64',
      PTYWS_MAX_OBSERVERS: '10000',
      PTYWS_KEYFRAME_INTERVAL_S: '1',
      PTYWS_KEYFRAME_INTERVAL_FRAMES: '7',
      PTYWS_DEFAULT_COLS: '20',
      PTYWS_DEFAULT_ROWS: '1024',
      PTYWS_MAX_FRAME_BYTES: '2048',
      PTYWS_SHELL: '/bin/sh',
      PTYWS_OUTPUT_COALESCE_MS: '0',
      PTYWS_OUTPUT_FRAME_BYTES: '1024',
      PTYWS_SLOW_CONSUMER_BYTES: '4096',
      PTYWS_TASK_TIMEOUT_S: '3',
      PTYWS_TASK_OUTPUT_BYTES: '100',
      PTYWS_CLOSED_SESSION_TTL_S: '60',
      PTYWS_LOG_LEVEL: 'silent',
    });
    expect(config).toMatchObject({
      host: '::1',
      port: 0,
      instanceId: 'prod-1',
      edgeId: 'edge.a',
      agentId: 'agent_b',
      authEnabled: false,
      adminToken: 'a-long-enough-admin-token',
      pingIntervalMs: 10,
      pongTimeoutMs: 11,
      replayFrames: 5,
      replayRetentionS: 0,
      maxControllers: 64,
      maxObservers: 10000,
      keyframeIntervalS: 1,
      keyframeIntervalFrames: 7,
      defaultCols: 20,
      defaultRows: 1024,
      maxFrameBytes: 2048,
      shell: '/bin/sh',
      outputCoalesceMs: 0,
      outputFrameBytes: 1024,
      slowConsumerBytes: 4096,
      taskTimeoutS: 3,
      taskOutputBytes: 100,
      closedSessionTtlS: 60,
      logLevel: 'silent',
    });
  });

  it('tolerates whitespace around a value', () => {
    expect(loadConfig({ PTYWS_PORT: ' 9000\n' }).port).toBe(9000);
  });

  it('ignores variables outside the PTYWS_ prefix', () => {
    expect(() => loadConfig({ PATH: '/usr/bin', PORT: 'x', NODE_ENV: 'test' })).not.toThrow();
  });
});
