import { ConfigError, loadConfig } from '../src';
import { problemsOf } from './problems-of';

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
      'PTYWS_LOG_LEVEL=loud: not a known value; expected one of fatal|error|warn|info|debug|trace|silent',
      'PTYWS_MAX_CONTROLLERS=0: too small; expected a whole number from 1 to 64',
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
