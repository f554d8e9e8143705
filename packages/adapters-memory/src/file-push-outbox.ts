import { mkdir, readFile, rename, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { NewPushOutboxEntry, PushOutbox, PushOutboxEntry } from '@pty-ws/ports';
import { openNoFollow } from './open-no-follow';

type Line = { add: PushOutboxEntry } | { remove: string };

/**
 * The single-node PushOutbox: one JSON-lines file of `{"add":entry}` and `{"remove":id}` records,
 * each appended and fdatasync'ed before the call resolves, so a notification outlives a crash of
 * the process. Opening replays the file and rewrites it with only the live entries (written to a
 * temporary file, then renamed over it), so it does not grow across restarts. The file holds the
 * webhooks' credentials: it is created 0600. One process owns the file.
 */
export class FilePushOutbox implements PushOutbox {
  private readonly live = new Map<string, PushOutboxEntry>();
  private next = 1;
  private handle: FileHandle | undefined;
  private readonly ready: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {
    this.ready = this.load();
    this.ready.catch(() => undefined); // surfaced by the first call
  }

  add(entry: NewPushOutboxEntry): Promise<string> {
    return this.serialized(async () => {
      const id = String(this.next++);
      const stored = { ...structuredClone(entry), id };
      await this.write({ add: stored });
      this.live.set(id, stored);
      return id;
    });
  }

  remove(id: string): Promise<void> {
    return this.serialized(async () => {
      if (!this.live.delete(id)) return;
      await this.write({ remove: id });
    });
  }

  async pending(owner: string): Promise<PushOutboxEntry[]> {
    await this.ready;
    return [...this.live.values()].filter((e) => e.owner === owner).map((e) => structuredClone(e));
  }

  /** Closes the file (later calls fail). */
  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.handle?.close();
    this.handle = undefined;
  }

  private serialized<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.ready).then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(line: Line): Promise<void> {
    if (!this.handle) throw new Error(`push outbox ${this.file} is closed`);
    await this.handle.appendFile(`${JSON.stringify(line)}\n`);
    await this.handle.datasync();
  }

  private async load(): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const text = await readFile(this.file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    });
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        continue; // a line cut short by a crash mid-append: its add never resolved
      }
      if ('add' in line) {
        this.live.set(line.add.id, line.add);
        this.next = Math.max(this.next, Number(line.add.id) + 1);
      } else this.live.delete(line.remove);
    }
    const compacted = [...this.live.values()].map((e) => `${JSON.stringify({ add: e })}\n`).join('');
    const tmp = `${this.file}.tmp`;
    const fh = await openNoFollow(tmp, 'replace');
    try {
      await fh.writeFile(compacted);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.file);
    this.handle = await openNoFollow(this.file, 'append');
  }
}
