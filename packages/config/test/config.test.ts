import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hostname } from 'node:os';
import { CONFIG_VARIABLES, ConfigError, configTableMarkdown, loadConfig, type Config } from '../src';

/** Runs loadConfig expecting failure and returns its problems. */
function problemsOf(env: NodeJS.ProcessEnv, overrides?: Partial<Config>): readonly string[] {
  try {
    loadConfig(env, overrides);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

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

describe('loadConfig problems', () => {
  it.each<[string, NodeJS.ProcessEnv, string]>([
    [
      'a non-number',
      { PTYWS_PORT: 'eighty' },
      'PTYWS_PORT=eighty: not a whole number; expected a whole number from 0 to 65535',
    ],
    [
      'a fraction',
      { PTYWS_PORT: '80.5' },
      'PTYWS_PORT=80.5: not a whole number; expected a whole number from 0 to 65535',
    ],
    ['exponent notation', { PTYWS_MAX_OBSERVERS: '1e3' }, 'PTYWS_MAX_OBSERVERS=1e3: not a whole number'],
    [
      'a port above range',
      { PTYWS_PORT: '65536' },
      'PTYWS_PORT=65536: too large; expected a whole number from 0 to 65535',
    ],
    ['a negative port', { PTYWS_PORT: '-1' }, 'PTYWS_PORT=-1: too small; expected a whole number from 0 to 65535'],
    [
      'a ping interval under 10 ms',
      { PTYWS_PING_INTERVAL_MS: '9' },
      'PTYWS_PING_INTERVAL_MS=9: too small; expected a whole number from 10',
    ],
    [
      'a timer past what setTimeout can hold',
      { PTYWS_PONG_TIMEOUT_MS: '2147483648' },
      'PTYWS_PONG_TIMEOUT_MS=2147483648: too large',
    ],
    [
      'zero controllers',
      { PTYWS_MAX_CONTROLLERS: '0' },
      'PTYWS_MAX_CONTROLLERS=0: too small; expected a whole number from 1 to 64',
    ],
    [
      'too many controllers',
      { PTYWS_MAX_CONTROLLERS: '65' },
      'PTYWS_MAX_CONTROLLERS=65: too large; expected a whole number from 1 to 64',
    ],
    [
      'too many observers',
      { PTYWS_MAX_OBSERVERS: '10001' },
      'PTYWS_MAX_OBSERVERS=10001: too large; expected a whole number from 1 to 10000',
    ],
    ['a zero keyframe interval', { PTYWS_KEYFRAME_INTERVAL_S: '0' }, 'PTYWS_KEYFRAME_INTERVAL_S=0: too small'],
    [
      'a zero keyframe frame count',
      { PTYWS_KEYFRAME_INTERVAL_FRAMES: '0' },
      'PTYWS_KEYFRAME_INTERVAL_FRAMES=0: too small',
    ],
    [
      'too narrow a terminal',
      { PTYWS_DEFAULT_COLS: '19' },
      'PTYWS_DEFAULT_COLS=19: too small; expected a whole number from 20 to 1024',
    ],
    [
      'too tall a terminal',
      { PTYWS_DEFAULT_ROWS: '1025' },
      'PTYWS_DEFAULT_ROWS=1025: too large; expected a whole number from 5 to 1024',
    ],
    ['an unknown auth mode', { PTYWS_AUTH: 'off' }, 'PTYWS_AUTH=off: not a known value; expected enabled or disabled'],
    [
      'an unknown log level',
      { PTYWS_LOG_LEVEL: 'verbose' },
      'PTYWS_LOG_LEVEL=verbose: not a known value; expected one of fatal|error|warn|info|debug|trace|silent',
    ],
    ['an id with a slash', { PTYWS_INSTANCE_ID: 'a/b' }, 'PTYWS_INSTANCE_ID=a/b: invalid; expected 1–64 characters'],
    ['an id starting with a dot', { PTYWS_EDGE_ID: '.edge' }, 'PTYWS_EDGE_ID=.edge: invalid'],
    ['an id of 65 characters', { PTYWS_AGENT_ID: 'a'.repeat(65) }, `PTYWS_AGENT_ID=${'a'.repeat(65)}: invalid`],
    [
      'a NATS server list with a bad port',
      { PTYWS_NATS_URL: 'nats://n1:4222,nats://n2:99999' },
      "server 2 of 2 'nats://n2:99999' is not a valid URL (host, or port 1-65535); expected nats://host:port",
    ],
    [
      'a NATS server list with an empty entry',
      { PTYWS_NATS_URL: 'nats://n1:4222,,nats://n3:4222' },
      'server 2 of 3 is empty; expected nats://host:port',
    ],
    [
      'a NATS server without a scheme',
      { PTYWS_NATS_URL: 'n1:4222' },
      "'n1:4222' does not start with nats://, tls://, ws:// or wss://",
    ],
    ['replicas past 5', { PTYWS_JETSTREAM_REPLICAS: '7' }, 'PTYWS_JETSTREAM_REPLICAS=7: too large'],
    [
      'a relative shell',
      { PTYWS_SHELL: 'bash' },
      'PTYWS_SHELL=bash: not an absolute path; expected an absolute path such as /bin/bash',
    ],
    [
      'a host with spaces',
      { PTYWS_HOST: 'my host' },
      'PTYWS_HOST="my host": invalid; expected a host name or IP address',
    ],
    [
      'a pong timeout not above the ping interval',
      { PTYWS_PING_INTERVAL_MS: '1000', PTYWS_PONG_TIMEOUT_MS: '1000' },
      'PTYWS_PONG_TIMEOUT_MS=1000: not greater than PTYWS_PING_INTERVAL_MS (1000); expected a timeout longer than the ping interval',
    ],
    [
      'a ping interval past the default pong timeout',
      { PTYWS_PING_INTERVAL_MS: '100000' },
      'PTYWS_PING_INTERVAL_MS=100000: not less than PTYWS_PONG_TIMEOUT_MS (90000); expected an interval shorter than the pong timeout',
    ],
    [
      'a slow-consumer backlog below one frame',
      { PTYWS_SLOW_CONSUMER_BYTES: '2048', PTYWS_OUTPUT_FRAME_BYTES: '4096' },
      'PTYWS_SLOW_CONSUMER_BYTES=2048: smaller than PTYWS_OUTPUT_FRAME_BYTES (4096)',
    ],
    [
      'a frame set past the default slow-consumer backlog',
      { PTYWS_OUTPUT_FRAME_BYTES: '2097152' },
      'PTYWS_OUTPUT_FRAME_BYTES=2097152: larger than PTYWS_SLOW_CONSUMER_BYTES (1048576)',
    ],
  ])('reports %s', (_label, env, expected) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  it('reports every problem at once, in one message', () => {
    let error: unknown;
    try {
      loadConfig({ PTYWS_PORT: 'x', PTYWS_AUTH: 'maybe', PTYWS_MAX_CONTROLLERS: '100', PTYWS_SHELL: 'sh' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems).toHaveLength(4);
    expect(message).toMatch(/^invalid configuration \(4 problems\):\n/);
    for (const name of ['PTYWS_PORT=x', 'PTYWS_AUTH=maybe', 'PTYWS_MAX_CONTROLLERS=100', 'PTYWS_SHELL=sh']) {
      expect(message).toContain(`  - ${name}: `);
    }
  });

  it('does not pile a relation problem onto a field that failed its own check', () => {
    expect(problemsOf({ PTYWS_PING_INTERVAL_MS: '5', PTYWS_PONG_TIMEOUT_MS: '1' })).toHaveLength(2);
  });

  it('quotes and cuts values so the reader sees what was there', () => {
    expect(problemsOf({ PTYWS_LOG_LEVEL: 'x'.repeat(200) })[0]).toContain(`PTYWS_LOG_LEVEL=${'x'.repeat(80)}…:`);
    expect(problemsOf({ PTYWS_PORT: '80 80' })[0]).toContain('PTYWS_PORT="80 80":');
  });
});

describe('admin token redaction', () => {
  const token = 'short secret';

  it('never echoes PTYWS_ADMIN_TOKEN', () => {
    let error: unknown;
    try {
      loadConfig({ PTYWS_ADMIN_TOKEN: token, PTYWS_PORT: 'x' });
    } catch (err) {
      error = err;
    }
    const { problems, message, stack } = error as ConfigError;
    expect(problems).toContainEqual(
      expect.stringMatching(/^PTYWS_ADMIN_TOKEN=<redacted>: invalid; expected at least 16 characters/),
    );
    for (const text of [message, stack ?? '', ...problems]) expect(text).not.toContain('secret');
  });

  it('never echoes an overridden admin token', () => {
    const problems = problemsOf({}, { adminToken: 'tiny' });
    expect(problems).toEqual([expect.stringMatching(/^PTYWS_ADMIN_TOKEN=<redacted>: /)]);
    expect(problems.join()).not.toContain('tiny');
  });

  it('never echoes the value of an unknown variable, which may be a misspelt secret', () => {
    const problems = problemsOf({ PTYWS_ADMIN_TOKN: 'hunter2-hunter2-hunter2' });
    expect(problems).toEqual(['PTYWS_ADMIN_TOKN=<redacted>: unknown variable; did you mean PTYWS_ADMIN_TOKEN?']);
  });

  it('accepts a good token', () => {
    expect(loadConfig({ PTYWS_ADMIN_TOKEN: 'a-long-enough-admin-token' }).adminToken).toBe('a-long-enough-admin-token');
  });

  it('refuses a long but repetitive token (one letter, or two alternating)', () => {
    expect(() => loadConfig({ PTYWS_ADMIN_TOKEN: 'x'.repeat(32) })).toThrow(/not repetitive/);
    expect(() => loadConfig({ PTYWS_ADMIN_TOKEN: 'ab'.repeat(12) })).toThrow(/not repetitive/);
  });
});

describe('overrides', () => {
  it('win over the environment', () => {
    const config = loadConfig({ PTYWS_PORT: '9000', PTYWS_AUTH: 'enabled' }, { port: 0, authEnabled: false });
    expect(config.port).toBe(0);
    expect(config.authEnabled).toBe(false);
  });

  it('replace a bad environment value without reporting it', () => {
    expect(loadConfig({ PTYWS_PORT: 'nope' }, { port: 1234 }).port).toBe(1234);
  });

  it('treat undefined as "not overridden"', () => {
    expect(loadConfig({ PTYWS_PORT: '9000' }, { port: undefined }).port).toBe(9000);
  });

  it('are validated like the environment', () => {
    expect(problemsOf({}, { maxControllers: 0, logLevel: 'loud' })).toEqual([
      'PTYWS_MAX_CONTROLLERS=0: too small; expected a whole number from 1 to 64',
      'PTYWS_LOG_LEVEL=loud: not a known value; expected one of fatal|error|warn|info|debug|trace|silent',
    ]);
  });

  it('take part in relations', () => {
    expect(problemsOf({}, { pingIntervalMs: 5000, pongTimeoutMs: 4000 })).toEqual([
      expect.stringMatching(/^PTYWS_PONG_TIMEOUT_MS=4000: not greater than PTYWS_PING_INTERVAL_MS \(5000\)/),
    ]);
  });
});

describe('unknown variables', () => {
  it.each([
    ['PTYWS_PROT', 'PTYWS_PORT'],
    ['PTYWS_HSOT', 'PTYWS_HOST'],
    ['PTYWS_MAX_CONTROLERS', 'PTYWS_MAX_CONTROLLERS'],
    ['PTYWS_PING_INTERVAL', 'PTYWS_PING_INTERVAL_MS'],
    ['PTYWS_REPLAY_RETENTION_SECONDS', 'PTYWS_REPLAY_RETENTION_S'],
    ['ptyws_port', 'PTYWS_PORT'],
    ['PTYWS_LOGLEVEL', 'PTYWS_LOG_LEVEL'],
  ])('%s suggests %s', (typo, known) => {
    expect(problemsOf({ [typo]: '1' })).toEqual([`${typo}=<redacted>: unknown variable; did you mean ${known}?`]);
  });

  it('reports a name close to nothing without a hint', () => {
    expect(problemsOf({ PTYWS_FLUX_CAPACITOR: '1' })).toEqual([
      'PTYWS_FLUX_CAPACITOR=<redacted>: unknown variable; expected one of the PTYWS_* names in the configuration table',
    ]);
  });
});

describe('the Output frame size', () => {
  it('defaults to 256 KiB, or to a smaller slow-consumer backlog, which then keeps working', () => {
    expect(loadConfig({}).outputFrameBytes).toBe(262144);
    expect(loadConfig({ PTYWS_SLOW_CONSUMER_BYTES: '65536' }).outputFrameBytes).toBe(65536);
    expect(loadConfig({ PTYWS_SLOW_CONSUMER_BYTES: '4194304' }).outputFrameBytes).toBe(262144);
    expect(loadConfig({ PTYWS_SLOW_CONSUMER_BYTES: '65536', PTYWS_OUTPUT_FRAME_BYTES: '1024' }).outputFrameBytes).toBe(
      1024,
    );
    // Programmatic settings (startNode's overrides) count like variables.
    expect(loadConfig({}, { slowConsumerBytes: 65536 }).outputFrameBytes).toBe(65536);
  });
});

describe('CONFIG_VARIABLES and the README table', () => {
  it('describes every Config field exactly once, with unique PTYWS_ names', () => {
    const fields = CONFIG_VARIABLES.map((v) => v.field);
    // Optional fields are present only when set: set every one of them.
    const config = loadConfig(
      {},
      {
        adminToken: 'a-long-enough-admin-token',
        natsUrl: 'nats://127.0.0.1:4222',
        databaseUrl: 'postgres://postgres@127.0.0.1/x',
        tlsCert: '/etc/ptyws/cert.pem',
        tlsKey: '/etc/ptyws/key.pem',
        allowInsecure: false,
        grpcHost: '0.0.0.0',
        transcriptDir: '/var/lib/ptyws/transcripts',
        tlsCa: '/etc/ptyws/clients-ca.pem',
        auditLog: 'stderr',
        sessionEnvAllow: ['LANG'],
        sessionUser: 'nobody',
      },
    );
    expect([...fields].sort()).toEqual(Object.keys(config).sort());
    const names = CONFIG_VARIABLES.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^PTYWS_[A-Z_]+$/);
  });

  it('every variable is read: setting an invalid value is reported under its own name', () => {
    for (const v of CONFIG_VARIABLES) {
      const problems = problemsOf({ [v.name]: ' not valid at all ' });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^${v.name}=`));
    }
  });

  it('renders one row per variable', () => {
    const table = configTableMarkdown();
    const lines = table.trimEnd().split('\n');
    expect(lines[0]).toBe('| Variable | Default | Description |');
    expect(lines).toHaveLength(CONFIG_VARIABLES.length + 2);
    expect(table).toContain(
      '| `PTYWS_PORT` | `8080` | TCP port to listen on, alone: a port another process listens on stops the start (`cannot listen on host:port`); 0 picks a free port (tests). |',
    );
    expect(table).toContain('`fatal\\|error\\|warn\\|info\\|debug\\|trace\\|silent`'.slice(1, -1));
  });

  it('is the table in the README (cells compared, column padding aside)', () => {
    const rows = (markdown: string): string[][] => {
      const start = markdown.indexOf('| Variable');
      const end = markdown.indexOf('\n\n', start);
      return markdown
        .slice(start, end === -1 ? undefined : end)
        .trim()
        .split('\n')
        .filter((line) => !/^\|\s*-/.test(line))
        .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()));
    };
    const readme = readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    expect(rows(readme)).toEqual(rows(configTableMarkdown()));
  });

  it('cannot be mutated by a consumer', () => {
    expect(Object.isFrozen(CONFIG_VARIABLES)).toBe(true);
    expect(Object.isFrozen(CONFIG_VARIABLES[0])).toBe(true);
  });
});

describe('security variables', () => {
  it('needs PTYWS_TLS_CERT and PTYWS_TLS_KEY together', () => {
    expect(problemsOf({ PTYWS_TLS_CERT: '/etc/c.pem' })).toEqual([
      'PTYWS_TLS_CERT is set but PTYWS_TLS_KEY is not; expected both or neither',
    ]);
    const config = loadConfig({ PTYWS_TLS_CERT: '/etc/c.pem', PTYWS_TLS_KEY: '/etc/k.pem' });
    expect([config.tlsCert, config.tlsKey]).toEqual(['/etc/c.pem', '/etc/k.pem']);
  });

  it('reads PTYWS_ALLOW_INSECURE as 1/0 and leaves it unset by default', () => {
    expect(loadConfig({}).allowInsecure).toBeUndefined();
    expect(loadConfig({ PTYWS_ALLOW_INSECURE: '0' }).allowInsecure).toBe(false);
    expect(loadConfig({ PTYWS_ALLOW_INSECURE: '1' }).allowInsecure).toBe(true);
  });

  it('reads PTYWS_TRUSTED_PROXIES as CIDRs and rejects anything else', () => {
    expect(loadConfig({ PTYWS_TRUSTED_PROXIES: '10.0.0.0/8, ::1/128,192.168.1.1' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '::1/128',
      '192.168.1.1',
    ]);
    expect(problemsOf({ PTYWS_TRUSTED_PROXIES: '10.0.0.0/33' })).toHaveLength(1);
    expect(problemsOf({ PTYWS_TRUSTED_PROXIES: 'proxy.local' })).toHaveLength(1);
  });
});

describe('security variables', () => {
  it('PTYWS_TLS_CA needs the edge to serve TLS itself', () => {
    expect(() => loadConfig({ PTYWS_TLS_CA: '/etc/ca.pem' })).toThrow(/PTYWS_TLS_CA is set but PTYWS_TLS_CERT is not/);
    const ok = loadConfig({ PTYWS_TLS_CA: '/ca.pem', PTYWS_TLS_CERT: '/c.pem', PTYWS_TLS_KEY: '/k.pem' });
    expect(ok.tlsCa).toBe('/ca.pem');
  });

  it('PTYWS_MTLS_SCOPES is a non-empty list of known scopes', () => {
    expect(loadConfig({ PTYWS_MTLS_SCOPES: 'pty:observe, pty:control,pty:observe' }).mtlsScopes).toEqual([
      'pty:observe',
      'pty:control',
    ]);
    expect(() => loadConfig({ PTYWS_MTLS_SCOPES: 'pty:root' })).toThrow(/PTYWS_MTLS_SCOPES=pty:root: invalid/);
  });

  it('PTYWS_AUDIT_LOG is off, stdout, stderr or an absolute path', () => {
    for (const v of ['off', 'stdout', 'stderr', '/var/log/ptyws/audit.jsonl']) {
      expect(loadConfig({ PTYWS_AUDIT_LOG: v }).auditLog).toBe(v);
    }
    expect(() => loadConfig({ PTYWS_AUDIT_LOG: 'audit.jsonl' })).toThrow(/PTYWS_AUDIT_LOG=audit.jsonl/);
  });
});
