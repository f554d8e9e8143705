import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { UnsupportedAuditQuery, type AuditEvent } from '@pty-ws/ports';
import { auditLogContract } from '@pty-ws/testkit/contracts';
import { JsonLinesAuditLog } from '../src';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptyws-audit-'));
  dirs.push(dir);
  return join(dir, 'nested', 'audit.jsonl');
}

auditLogContract('JSON lines file', async () => {
  const file = tempFile();
  const log = await JsonLinesAuditLog.open({ file });
  const opened = [log];
  return {
    log,
    reopen: async () => {
      const again = await JsonLinesAuditLog.open({ file });
      opened.push(again);
      return again;
    },
    cleanup: async () => {
      await Promise.all(opened.map((l) => l.close()));
    },
  };
});

const sample: AuditEvent = {
  at: 1_700_000_000_000,
  type: 'input',
  instanceId: 'i',
  principal: 'token:t',
  sessionId: 's',
  clientId: 'c',
  disclosure: false,
  detail: { bytes: 3, frames: 1 },
};

describe('JsonLinesAuditLog beyond the contract', () => {
  it('writes one JSON object per line to a file created 0600', async () => {
    const file = tempFile();
    const log = await JsonLinesAuditLog.open({ file });
    log.record(sample);
    log.record({ ...sample, type: 'resize', detail: { cols: 80, rows: 24 } });
    await log.close();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, type: 'input', session_id: 's', detail: { bytes: 3 } });
    expect(JSON.parse(lines[1]!)).toMatchObject({ id: 2, type: 'resize', ts: '2023-11-14T22:13:20.000Z' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('skips a torn last line when reading and continuing ids', async () => {
    const file = tempFile();
    const first = await JsonLinesAuditLog.open({ file });
    first.record(sample);
    await first.close();
    writeFileSync(file, readFileSync(file, 'utf8') + '{"id":2,"ts":"tor', { flag: 'w' });
    const again = await JsonLinesAuditLog.open({ file });
    again.record(sample);
    const got = await again.query({ instanceId: 'i', limit: 10 });
    await again.close();
    expect(got.map((e) => e.id)).toEqual([1, 2]);
  });

  it('to a stream: writes lines, refuses queries with a clear reason', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const log = await JsonLinesAuditLog.open({ stream, name: 'stderr' });
    log.record(sample);
    await log.flush();
    expect(JSON.parse(chunks.join(''))).toMatchObject({ id: 1, principal: 'token:t' });
    await expect(log.query({ instanceId: 'i', limit: 1 })).rejects.toBeInstanceOf(UnsupportedAuditQuery);
  });
});
