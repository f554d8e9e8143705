/**
 * The first transcript chunk format, read only: gzip of one JSON line per entry (Output bytes as
 * base64, events with their payload). Chunks written before format 2 stay readable through this.
 */
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { LogEntry } from './frame-log';

const gunzipAsync = promisify(gunzip);

/** Every gzip member starts with these two bytes (RFC 1952). */
export function isV1Chunk(data: Uint8Array): boolean {
  return data[0] === 0x1f && data[1] === 0x8b;
}

interface ArchivedLine {
  seq: number;
  id: string;
  ts: number;
  type: 'output' | 'event';
  stream?: string;
  data?: string;
  op?: string;
  payload?: Record<string, unknown>;
  task_id?: string;
  service_parameters?: Record<string, unknown>;
}

function fromLine(l: ArchivedLine): LogEntry {
  if (l.type === 'output') {
    return {
      type: 'output',
      seq: l.seq,
      id: l.id,
      ts: l.ts,
      stream: (l.stream ?? 'stdout') as 'stdout',
      data: new Uint8Array(Buffer.from(l.data ?? '', 'base64')),
    };
  }
  return {
    type: 'event',
    seq: l.seq,
    id: l.id,
    ts: l.ts,
    op: l.op ?? '',
    payload: l.payload ?? {},
    ...(l.task_id !== undefined ? { taskId: l.task_id } : {}),
    ...(l.service_parameters !== undefined ? { serviceParameters: l.service_parameters } : {}),
  };
}

export async function decodeV1Chunk(data: Uint8Array): Promise<LogEntry[]> {
  const text = (await gunzipAsync(data)).toString('utf8');
  const out: LogEntry[] = [];
  for (const line of text.split('\n')) if (line !== '') out.push(fromLine(JSON.parse(line) as ArchivedLine));
  return out;
}
