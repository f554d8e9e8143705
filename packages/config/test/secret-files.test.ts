import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, dropSecretVariables, loadConfig } from '../src';

const TOKEN = 'f3a9c1d27b8e4605a1c9e2d4b7f08a36';

function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('secrets from files (<name>_FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ptyws-secret-'));
  const file = (name: string, text: string): string => {
    const p = path.join(dir, name);
    writeFileSync(p, text, { mode: 0o600 });
    return p;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the admin token and the cluster URLs from files, one trailing newline dropped', () => {
    const config = loadConfig({
      PTYWS_ADMIN_TOKEN_FILE: file('token', `${TOKEN}\n`),
      PTYWS_DATABASE_URL_FILE: file('db', 'postgres://agent:pw@db/ptyws\n'),
      PTYWS_NATS_URL_FILE: file('nats', 'nats://agent:pw@nats:4222'),
    });
    expect(config.adminToken).toBe(TOKEN);
    expect(config.databaseUrl).toBe('postgres://agent:pw@db/ptyws');
    expect(config.natsUrl).toBe('nats://agent:pw@nats:4222');
  });

  it('refuses both forms at once, a relative path and an unreadable file, without showing the value', () => {
    const problems = problemsOf({
      PTYWS_ADMIN_TOKEN: TOKEN,
      PTYWS_ADMIN_TOKEN_FILE: file('token2', TOKEN),
      PTYWS_DATABASE_URL_FILE: 'db.url',
      PTYWS_NATS_URL_FILE: path.join(dir, 'missing'),
    });
    expect(problems).toEqual([
      'PTYWS_NATS_URL_FILE=' + path.join(dir, 'missing') + ': cannot read it (ENOENT)',
      'PTYWS_DATABASE_URL_FILE=db.url: expected an absolute file path',
      'PTYWS_ADMIN_TOKEN and PTYWS_ADMIN_TOKEN_FILE are both set: set one of them',
    ]);
    expect(problems.join('\n')).not.toContain(TOKEN);
  });

  it('checks a value from a file like one from the environment, and never echoes it', () => {
    const problems = problemsOf({ PTYWS_ADMIN_TOKEN_FILE: file('weak', 'aaaaaaaaaaaaaaaaaaaa') });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^PTYWS_ADMIN_TOKEN=<redacted>: /);
  });

  it('only secrets have a _FILE form', () => {
    expect(problemsOf({ PTYWS_PORT_FILE: '/x' })[0]).toMatch(/^PTYWS_PORT_FILE=<redacted>: unknown variable/);
  });

  it('dropSecretVariables removes the secrets from an environment once read, and keeps the rest', () => {
    const env: NodeJS.ProcessEnv = {
      PTYWS_ADMIN_TOKEN: TOKEN,
      PTYWS_DATABASE_URL: 'postgres://x@y/z',
      PTYWS_NATS_URL: 'nats://u:p@n',
      PTYWS_PORT: '8080',
      PATH: '/bin',
    };
    dropSecretVariables(env);
    expect(env).toEqual({ PTYWS_PORT: '8080', PATH: '/bin' });
  });
});

describe('PTYWS_SESSION_USER', () => {
  it('takes a user name or uid[:gid], never root', () => {
    expect(loadConfig({ PTYWS_SESSION_USER: 'nobody' }).sessionUser).toBe('nobody');
    expect(loadConfig({ PTYWS_SESSION_USER: '1000:1000' }).sessionUser).toBe('1000:1000');
    for (const bad of ['root', '0', '0:0', 'a b', '-x', '1000:']) {
      expect(problemsOf({ PTYWS_SESSION_USER: bad })[0]).toMatch(/^PTYWS_SESSION_USER=/);
    }
  });
});
