/** `ptyctl screen` and `ptyctl wait` against a real server. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { http, startTestServer, waitUntil, type TestServer } from '@pty-ws/testkit';
import { ensureBuilt, ptyctl } from './cli';

let server: TestServer;
let env: Record<string, string>;
let dir: string;

const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };

beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
  env = { PTYWS_URL: server.httpUrl, PTYWS_TOKEN: server.adminToken };
  dir = mkdtempSync(path.join(tmpdir(), 'ptyctl-wait-'));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function session(script: string): Promise<string> {
  const created = await http(server, 'POST', '/api/v1/sessions', {
    json: { argv: ['/bin/sh', '-c', script], env: ENV, cols: 60, rows: 10 },
  });
  return (created.body as { session_id: string }).session_id;
}

async function lastSeq(id: string): Promise<number> {
  const res = await http(server, 'GET', `/api/v1/sessions/${id}`);
  return (res.body as { replay: { last_sequence: number } }).replay.last_sequence;
}

describe('ptyctl screen', () => {
  it('prints the screen as text, one line per row', async () => {
    const id = await session("printf 'hello \\033[31m世界\\033[0m\\n'; exec sleep 60");
    const r = await waitUntil(
      async () => {
        const out = await ptyctl(['screen', id], env);
        return out.stdout.startsWith('hello') && out;
      },
      10_000,
      'the screen',
    );
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['hello 世界', '']);
    expect(r.stdout.split('\n')).toHaveLength(11); // ten rows, each ended
    const ansi = await ptyctl(['screen', id, '--ansi'], env);
    expect(ansi.stdout.split('\n')[0]).toBe('hello \x1b[0;31m世界\x1b[0m');
  });
});

describe('ptyctl wait', () => {
  it('exits 0 with the matched text, 6 on timeout, 7 when the session ended first', async () => {
    const go = path.join(dir, 'go');
    const id = await session(`while [ ! -e ${go} ]; do sleep 0.05; done; echo "server ready on 8080"; exit 2`);
    const from = await lastSeq(id);
    const timedOut = await ptyctl(['wait', id, '--pattern', 'ready', '--timeout', '0.3'], env);
    expect(timedOut.code).toBe(6);
    expect(timedOut.stderr).toContain('timed out');
    const matching = ptyctl(['wait', id, '--regex', '--pattern', 'ready on \\d+', '--from-seq', String(from)], env);
    writeFileSync(go, '');
    const matched = await matching;
    expect(matched).toMatchObject({ code: 0, stdout: 'ready on 8080\n' });
    const closed = await ptyctl(['wait', id, '--pattern', 'never', '--from-seq', String(from), '--timeout', '20'], env);
    expect(closed.code).toBe(7);
    expect(closed.stderr).toContain('exit code 2');
    expect((await ptyctl(['wait', id, '--regex'], env)).code).toBe(2);
  });
});
