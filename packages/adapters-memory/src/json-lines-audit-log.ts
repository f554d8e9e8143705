import { createReadStream } from 'node:fs';
import { mkdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import {
  AuditBatcher,
  UnsupportedAuditQuery,
  auditEventFromJson,
  auditEventToJson,
  matchesAuditQuery,
  type AuditBatcherOptions,
  type AuditEvent,
  type AuditLog,
  type AuditQuery,
  type StoredAuditEvent,
} from '@pty-ws/ports';
import { openNoFollow } from './open-no-follow';

/** A file (appended, created 0600) or a process stream (stdout/stderr: write-only). */
export type JsonLinesTarget = { file: string } | { stream: Writable; name: string };

export type JsonLinesAuditOptions = Pick<
  AuditBatcherOptions,
  'flushIntervalMs' | 'maxBatch' | 'maxQueued' | 'onProblem'
>;

/** The tail read at open to continue the id sequence: longer than any line this sink writes. */
const TAIL_BYTES = 64 * 1024;

/**
 * AuditLog as JSON lines (one `AuditEventJson` per line), the single-node sink. Written in
 * batches by one append per batch (O_APPEND: safe with logrotate's copytruncate). Ids continue
 * from the file's last line, so they stay unique across restarts. Queries scan the file; stream
 * targets cannot be queried.
 */
export class JsonLinesAuditLog implements AuditLog {
  private readonly batcher: AuditBatcher;
  private nextId = 1;

  private constructor(
    private readonly target: JsonLinesTarget,
    private readonly handle: FileHandle | undefined,
    lastId: number,
    opts: JsonLinesAuditOptions,
  ) {
    this.nextId = lastId + 1;
    this.batcher = new AuditBatcher({ ...opts, write: (batch) => this.write(batch) });
  }

  static async open(target: JsonLinesTarget, opts: JsonLinesAuditOptions = {}): Promise<JsonLinesAuditLog> {
    if ('stream' in target) return new JsonLinesAuditLog(target, undefined, 0, opts);
    await mkdir(dirname(target.file), { recursive: true, mode: 0o700 });
    const handle = await openNoFollow(target.file, 'read-append');
    try {
      return new JsonLinesAuditLog(target, handle, await lastIdOf(handle), opts);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  get description(): string {
    return 'file' in this.target ? this.target.file : this.target.name;
  }

  record(event: AuditEvent): void {
    this.batcher.record(event);
  }

  flush(): Promise<void> {
    return this.batcher.flush();
  }

  async query(q: AuditQuery): Promise<StoredAuditEvent[]> {
    if (!('file' in this.target)) {
      throw new UnsupportedAuditQuery(
        `the audit log goes to ${this.target.name} and cannot be read back; set PTYWS_AUDIT_LOG to a file`,
      );
    }
    await this.flush();
    const out: StoredAuditEvent[] = [];
    const lines = createInterface({
      input: createReadStream(this.target.file, { encoding: 'utf8' }),
      crlfDelay: Infinity,
    });
    try {
      for await (const line of lines) {
        const e = parseLine(line);
        if (e && matchesAuditQuery(e, q)) {
          out.push(e);
          if (out.length >= q.limit) break;
        }
      }
    } finally {
      lines.close();
    }
    return out;
  }

  private closing: Promise<void> | undefined;

  /** Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.flush().then(() => this.handle?.close());
    return this.closing;
  }

  private async write(batch: readonly AuditEvent[]): Promise<void> {
    const first = this.nextId;
    const text = batch.map((e, i) => JSON.stringify(auditEventToJson({ ...e, id: first + i })) + '\n').join('');
    if (this.handle) await this.handle.write(text);
    else await writeStream((this.target as { stream: Writable }).stream, text);
    // Ids advance only once written: a failed batch is retried with the same ids.
    this.nextId = first + batch.length;
  }
}

function parseLine(line: string): StoredAuditEvent | undefined {
  if (line.trim() === '') return undefined;
  try {
    return auditEventFromJson(JSON.parse(line));
  } catch {
    return undefined; // a torn line (crash mid-write) is skipped, not fatal
  }
}

/** The id on the file's last complete line; ends a torn last line so the next write starts afresh. */
async function lastIdOf(handle: FileHandle): Promise<number> {
  const { size } = await handle.stat();
  if (size === 0) return 0;
  const length = Math.min(size, TAIL_BYTES);
  const buf = Buffer.alloc(length);
  await handle.read(buf, 0, length, size - length);
  if (buf[length - 1] !== 0x0a) await handle.write('\n');
  const lines = buf.toString('utf8').split('\n').reverse();
  for (const line of lines) {
    const e = parseLine(line);
    if (e) return e.id;
  }
  return 0;
}

function writeStream(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
