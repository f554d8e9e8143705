import { write, writeSync } from 'node:fs';

/** Larger writes (pastes) are queued and written off the event loop, like node-pty's own queue. */
const DIRECT_WRITE_MAX_BYTES = 4096;

/**
 * Input to a pty master, in order: a small write while nothing is queued is made at once on this
 * thread (pty-write.ts has why: a keystroke must not wait for a pool thread); what the kernel does
 * not take (EAGAIN, a short write) and large writes are queued and retried on the next turn.
 */
export class FdWriter {
  private queue: Array<{ buffer: Buffer; offset: number }> = [];
  private retry: NodeJS.Immediate | undefined;
  private writing = false;
  private disposed = false;
  private whenIdle: (() => void) | undefined;

  constructor(private readonly fd: number) {}

  write(data: Uint8Array): void {
    if (this.disposed || data.length === 0) return;
    let rest = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (this.queue.length === 0 && rest.length <= DIRECT_WRITE_MAX_BYTES) {
      let written = 0;
      try {
        written = writeSync(this.fd, rest);
      } catch {
        // EAGAIN (the kernel's buffer is full): the queue retries.
      }
      if (written === rest.length) return;
      rest = rest.subarray(written);
    }
    // A copy: the caller may reuse its buffer before the queue gets to it.
    this.queue.push({ buffer: Buffer.from(rest), offset: 0 });
    if (this.queue.length === 1) this.next();
  }

  /** Drops what is queued; resolves once no write is running on the fd any more (it may then be closed). */
  dispose(): Promise<void> {
    this.disposed = true;
    this.queue = [];
    if (this.retry) clearImmediate(this.retry);
    return this.writing ? new Promise<void>((resolve) => (this.whenIdle = resolve)) : Promise.resolve();
  }

  private next(): void {
    const task = this.queue[0];
    if (!task || this.disposed) return;
    this.writing = true;
    write(this.fd, task.buffer, task.offset, task.buffer.length - task.offset, null, (err, written) => {
      this.writing = false;
      if (this.disposed) return this.whenIdle?.();
      if (err) {
        if (err.code === 'EAGAIN') this.retry = setImmediate(() => this.next());
        else this.queue = []; // the tty is gone (EIO): nothing queued can be delivered
        return;
      }
      task.offset += written;
      if (task.offset >= task.buffer.length) this.queue.shift();
      this.next();
    });
  }
}
