import { CONFIG_VARIABLES, loadConfig } from '../src';
import { problemsOf } from './problems-of';

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

describe('CONFIG_VARIABLES', () => {
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

  it('tags every variable with its reader and tier; a tuning one says when to change it', () => {
    for (const v of CONFIG_VARIABLES) {
      expect(`${v.name} ${v.reader}`).toMatch(/ (edge|agent|both)$/);
      expect(`${v.name} ${v.tier}`).toMatch(/ (essential|operations|tuning|test)$/);
      expect(`${v.name} why: ${v.why !== undefined}`).toBe(`${v.name} why: ${v.tier === 'tuning'}`);
    }
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
