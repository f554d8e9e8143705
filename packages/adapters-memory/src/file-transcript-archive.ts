import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, readdir, rename, rm, stat, truncate, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import {
  EMPTY_ARCHIVE_STATS,
  SequenceConflictError,
  acceptedRun,
  decodeChunk,
  encodeChunk,
  selectRange,
  type ArchiveStats,
  type ArchiveTrim,
  type LogEntry,
  type TranscriptArchive,
} from '@pty-ws/ports';
import { openNoFollow } from './open-no-follow';

/** One chunk's place in the data file. */
interface IndexLine {
  first: number;
  last: number;
  first_ts: number;
  last_ts: number;
  frames: number;
  offset: number;
  length: number;
}

interface SessionFiles {
  data: string;
  index: string;
  chunks: IndexLine[];
  /** End of the last indexed chunk: where the next one is written. */
  end: number;
}

/**
 * The single-node TranscriptArchive: per session, `<dir>/<session>.chunks` holds the encoded
 * chunks back to back (transcript-chunk.ts) and `<dir>/<session>.idx` one JSON line per chunk
 * (range and byte offset) for range reads. A session archived before chunk format 2 keeps its
 * `<session>.jsonl.gz` (gzip JSONL chunks), which is read and continued under that name.
 *
 * A chunk is written and fsynced before its index line, and an index line before `append`
 * resolves; bytes past the last indexed chunk (a crash between the two writes) are cut off the
 * next time the session is opened, so the data file never holds a chunk twice. Writes to one
 * session are serialized in this process; one process owns a directory.
 */
export class FileTranscriptArchive implements TranscriptArchive {
  private readonly sessions = new Map<string, Promise<SessionFiles>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private dirReady: Promise<unknown> | undefined;

  constructor(readonly dir: string) {}

  append(sessionId: string, entries: readonly LogEntry[]): Promise<void> {
    return this.serialized(sessionId, async () => {
      const files = await this.open(sessionId);
      const lastSeq = files.chunks.at(-1)?.last ?? 0;
      const accepted = acceptedRun(lastSeq, entries);
      if ('gap' in accepted) throw new SequenceConflictError(sessionId, accepted.gap.expected, accepted.gap.got);
      if (accepted.run.length === 0) return;
      const chunk = await encodeChunk(accepted.run);
      const line: IndexLine = {
        first: chunk.firstSeq,
        last: chunk.lastSeq,
        first_ts: chunk.firstTs,
        last_ts: chunk.lastTs,
        frames: chunk.frames,
        offset: files.end,
        length: chunk.data.length,
      };
      await writeDurably(files.data, chunk.data, files.end);
      await appendDurably(files.index, JSON.stringify(line) + '\n');
      files.chunks.push(line);
      files.end += chunk.data.length;
    });
  }

  async read(sessionId: string, afterSeq: number, opts: { toSeq?: number; limit?: number } = {}): Promise<LogEntry[]> {
    if (opts.limit !== undefined && opts.limit <= 0) return [];
    const files = await this.open(sessionId);
    const out: LogEntry[] = [];
    const handle = await openNoFollow(files.data, 'read').catch(() => undefined);
    if (!handle) return out;
    try {
      for (const c of [...files.chunks]) {
        if (c.last <= afterSeq) continue;
        if (opts.toSeq !== undefined && c.first > opts.toSeq) break;
        const buf = Buffer.alloc(c.length);
        await handle.read(buf, 0, c.length, c.offset);
        const limit = opts.limit === undefined ? undefined : opts.limit - out.length;
        out.push(
          ...selectRange(await decodeChunk(buf), afterSeq, { ...opts, ...(limit !== undefined ? { limit } : {}) }),
        );
        if (opts.limit !== undefined && out.length >= opts.limit) break;
      }
    } finally {
      await handle.close();
    }
    return out;
  }

  async stats(sessionId: string): Promise<ArchiveStats> {
    const { chunks } = await this.open(sessionId);
    const first = chunks[0];
    const last = chunks.at(-1);
    if (!first || !last) return { ...EMPTY_ARCHIVE_STATS };
    return {
      firstSeq: first.first,
      lastSeq: last.last,
      frames: last.last - first.first + 1,
      chunks: chunks.length,
      bytes: chunks.reduce((n, c) => n + c.length, 0),
    };
  }

  /**
   * Drops the oldest chunks past `keepBytes`. The kept chunks stay at their offsets: the index is
   * rewritten without the dropped lines first (the old data file still holds every chunk it names),
   * then the data file is replaced by a sparse copy holding only the kept chunks, so the dropped
   * ones free their disk blocks and a crash between the two renames leaves a consistent pair.
   */
  dropOldest(sessionId: string, keepBytes: number): Promise<ArchiveTrim> {
    return this.serialized(sessionId, async () => {
      const files = await this.open(sessionId);
      const drop = chunksPastQuota(files.chunks, keepBytes);
      const dropped = files.chunks.slice(0, drop);
      const kept = files.chunks.slice(drop);
      if (drop > 0) {
        await replaceFile(files.index, async (h) => {
          await h.write(kept.map((c) => JSON.stringify(c) + '\n').join(''));
        });
        files.chunks = kept;
        const from = kept[0]!.offset;
        await replaceFile(files.data, async (h) => {
          const source = await openNoFollow(files.data, 'read');
          try {
            await copyRange(source, h, from, files.end);
          } finally {
            await source.close();
          }
        });
      }
      return {
        chunks: dropped.length,
        frames: dropped.reduce((n, c) => n + c.frames, 0),
        bytes: dropped.reduce((n, c) => n + c.length, 0),
        remainingBytes: kept.reduce((n, c) => n + c.length, 0),
        firstSeq: kept[0]?.first ?? (kept.at(-1)?.last ?? 0) + 1,
      };
    });
  }

  remove(sessionId: string): Promise<void> {
    return this.serialized(sessionId, async () => {
      const base = path.join(this.dir, fileNameOf(sessionId));
      this.sessions.delete(sessionId);
      for (const ext of FILE_EXTENSIONS) await rm(`${base}${ext}`, { force: true });
    });
  }

  /**
   * Deletes the files of every session not opened by this process whose last write is older
   * than `maxAgeMs`; returns how many sessions' files went. Single-node mode calls it at start:
   * its in-memory registry has forgotten every earlier session, so the closed-session sweep that
   * removes archives past their TTL never would.
   */
  async pruneStale(maxAgeMs: number, now = Date.now()): Promise<number> {
    const names = await readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    const open = new Set([...this.sessions.keys()].map(fileNameOf));
    const newest = new Map<string, number>();
    for (const name of names) {
      const m = /^(.+)\.(chunks|jsonl\.gz|idx)$/.exec(name);
      if (!m || open.has(m[1]!)) continue;
      const mtime = await stat(path.join(this.dir, name)).then(
        (st) => st.mtimeMs,
        () => undefined,
      );
      if (mtime !== undefined) newest.set(m[1]!, Math.max(newest.get(m[1]!) ?? 0, mtime));
    }
    let pruned = 0;
    for (const [base, mtime] of newest) {
      if (now - mtime <= maxAgeMs) continue;
      for (const ext of FILE_EXTENSIONS) await rm(path.join(this.dir, `${base}${ext}`), { force: true });
      pruned++;
    }
    return pruned;
  }

  /** The data file is the legacy one if the session has it (archived before format 2). */
  private async paths(sessionId: string): Promise<{ data: string; index: string }> {
    const base = path.join(this.dir, fileNameOf(sessionId));
    const legacy = `${base}${LEGACY_DATA}`;
    const data = await access(legacy).then(
      () => legacy,
      () => `${base}${DATA}`,
    );
    return { data, index: `${base}${INDEX}` };
  }

  /** Loads a session's index once per process, repairing what a crash mid-append left. */
  private open(sessionId: string): Promise<SessionFiles> {
    let files = this.sessions.get(sessionId);
    if (!files) {
      files = this.load(sessionId);
      this.sessions.set(sessionId, files);
      files.catch(() => this.sessions.delete(sessionId));
    }
    return files;
  }

  private async load(sessionId: string): Promise<SessionFiles> {
    this.dirReady ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.dirReady;
    const { data, index } = await this.paths(sessionId);
    const chunks: IndexLine[] = [];
    const text = await readFile(index, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        chunks.push(JSON.parse(line) as IndexLine);
      } catch {
        break; // a torn last line: the chunk it described is cut off below
      }
    }
    const last = chunks.at(-1);
    const end = last ? last.offset + last.length : 0;
    const size = await stat(data).then(
      (s) => s.size,
      () => 0,
    );
    if (size > end) await truncate(data, end);
    if (text !== '' && !text.endsWith('\n')) {
      // Rewrite the index without the torn line, so the next append starts on a fresh line.
      await rm(index, { force: true });
      if (chunks.length > 0) await appendDurably(index, chunks.map((c) => JSON.stringify(c)).join('\n') + '\n');
    }
    return { data, index, chunks, end };
  }

  private serialized<T>(sessionId: string, step: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(sessionId) ?? Promise.resolve();
    const next = prev.then(step, step);
    const tail = next.catch(() => undefined);
    this.queues.set(sessionId, tail);
    void tail.then(() => {
      if (this.queues.get(sessionId) === tail) this.queues.delete(sessionId);
    });
    return next;
  }
}

const DATA = '.chunks';
const LEGACY_DATA = '.jsonl.gz';
const INDEX = '.idx';
// `.tmp`: what a crash in the middle of dropOldest left.
const FILE_EXTENSIONS = [DATA, LEGACY_DATA, INDEX, `${DATA}.tmp`, `${LEGACY_DATA}.tmp`, `${INDEX}.tmp`];

/** Session ids are UUIDs in practice; anything that is not a plain file name is hashed. */
function fileNameOf(sessionId: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(sessionId)) return sessionId;
  return `h-${createHash('sha256').update(sessionId).digest('hex')}`;
}

/** How many of the oldest chunks go so the rest fit in `keepBytes` (the newest always stays). */
function chunksPastQuota(chunks: readonly IndexLine[], keepBytes: number): number {
  let bytes = 0;
  for (let i = chunks.length - 1; i >= 0; i--) {
    bytes += chunks[i]!.length;
    if (bytes > keepBytes) return Math.min(i + 1, chunks.length - 1);
  }
  return 0;
}

/** Writes `file` anew through a temporary file, fsynced and renamed over it. */
async function replaceFile(file: string, fill: (h: FileHandle) => Promise<void>): Promise<void> {
  const temp = `${file}.tmp`;
  await rm(temp, { force: true });
  const h = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await fill(h);
    await h.datasync();
  } finally {
    await h.close();
  }
  await rename(temp, file);
}

/** Copies bytes [from, to) of `source` to the same offsets of `target`, leaving a hole before them. */
async function copyRange(source: FileHandle, target: FileHandle, from: number, to: number): Promise<void> {
  const buf = Buffer.allocUnsafe(1024 * 1024);
  for (let at = from; at < to;) {
    const { bytesRead } = await source.read(buf, 0, Math.min(buf.length, to - at), at);
    if (bytesRead === 0) break;
    await target.write(buf, 0, bytesRead, at);
    at += bytesRead;
  }
  await target.truncate(to);
}

async function writeDurably(file: string, data: Buffer, position: number): Promise<void> {
  // Positional, not O_APPEND: bytes a failed earlier write left past `position` are overwritten.
  const h = await openNoFollow(file, 'write');
  try {
    await h.write(data, 0, data.length, position);
    await h.truncate(position + data.length);
    await h.datasync();
  } finally {
    await h.close();
  }
}

async function appendDurably(file: string, text: string): Promise<void> {
  const h = await openNoFollow(file, 'append');
  try {
    await h.write(text);
    await h.datasync();
  } finally {
    await h.close();
  }
}
