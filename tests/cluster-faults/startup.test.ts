/**
 * Start-up against unreachable backends: the services must exit non-zero at once with one line
 * naming the URL and the failure (no stack trace), and refuse a half configuration with exit 2.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVICE_NODE_FLAGS } from '@pty-ws/config';
import { freePort } from '@pty-ws/testkit';

jest.setTimeout(30_000);

const ROOT = path.resolve(__dirname, '../..');
const NATS_URL = process.env['PTYWS_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const SERVICES = [
  ['edge', 'services/edge/dist/main.js'],
  ['agent', 'services/pty-agent/dist/main.js'],
] as const;

interface Exit {
  code: number | null;
  stderr: string;
  stdout: string;
  ms: number;
}

function run(script: string, env: Record<string, string>): Promise<Exit> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, path.join(ROOT, script)], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/tmp', PTYWS_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Should it start after all, it must not outlive the test.
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

function expectOneCleanLine(e: Exit): void {
  expect(e.stderr).not.toMatch(/^\s+at /m);
  expect(e.stderr.trim().split('\n')).toHaveLength(1);
}

describe.each(SERVICES)('%s start-up', (name, script) => {
  it('exits non-zero naming the NATS URL and the failure when NATS is not there', async () => {
    const port = await freePort();
    const url = `nats://127.0.0.1:${port}`;
    const e = await run(script, {
      PTYWS_NATS_URL: url,
      PTYWS_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    process.stdout.write(`startup(${name}, bad NATS): exit ${e.code} after ${e.ms} ms: ${e.stderr}`);
    expect(e.code).not.toBe(0);
    expect(e.code).not.toBeNull();
    expect(e.stderr).toContain(`127.0.0.1:${port}`);
    expect(e.stderr).toMatch(/NATS/);
    expect(e.stderr).toMatch(/refused|ECONNREFUSED|timeout/i);
    expectOneCleanLine(e);
  });

  it('exits non-zero naming the database URL (without password) and the failure when Postgres is not there', async () => {
    const port = await freePort();
    const e = await run(script, {
      PTYWS_NATS_URL: NATS_URL,
      PTYWS_DATABASE_URL: `postgres://postgres:s3cret@127.0.0.1:${port}/ptyws`,
    });
    process.stdout.write(`startup(${name}, bad Postgres): exit ${e.code} after ${e.ms} ms: ${e.stderr}`);
    expect(e.code).not.toBe(0);
    expect(e.code).not.toBeNull();
    expect(e.stderr).toContain(`127.0.0.1:${port}`);
    expect(e.stderr).toMatch(/PostgreSQL/);
    expect(e.stderr).toMatch(/refused|ECONNREFUSED/i);
    expect(e.stderr).not.toContain('s3cret');
    expectOneCleanLine(e);
  });

  it.each([
    ['PTYWS_NATS_URL', { PTYWS_NATS_URL: NATS_URL }],
    ['PTYWS_DATABASE_URL', { PTYWS_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' }],
  ])('with only %s set, exits 2 saying it needs both', async (_only, env) => {
    const e = await run(script, env);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('needs PTYWS_NATS_URL and PTYWS_DATABASE_URL');
    expectOneCleanLine(e);
  });
});
