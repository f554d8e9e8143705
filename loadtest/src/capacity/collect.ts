/**
 * A full garbage collection in the service, from outside: V8 collects before it writes a heap
 * snapshot (`--heapsnapshot-signal`), and the snapshot is deleted unread. Memory figures taken
 * after it are what is in use, not what the collector has not reached yet.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '../phase';

const SIGNAL = 'SIGUSR2';

export class Collector {
  readonly dir = mkdtempSync(join(tmpdir(), 'ptyws-capacity-gc-'));

  /** The `node` options that let `collect()` reach the service. */
  get nodeFlags(): string[] {
    return [`--heapsnapshot-signal=${SIGNAL}`, `--diagnostic-dir=${this.dir}`];
  }

  /** Signals the service and waits until its snapshot is written (its size holds still), then deletes it. */
  async collect(pid: number, timeoutMs = 60_000): Promise<void> {
    const before = new Set(readdirSync(this.dir));
    process.kill(pid, SIGNAL);
    const deadline = Date.now() + timeoutMs;
    let size = -1;
    while (Date.now() < deadline) {
      await sleep(250);
      const file = readdirSync(this.dir).find((f) => !before.has(f));
      if (!file) continue;
      const now = statSync(join(this.dir, file)).size;
      if (now > 0 && now === size) {
        rmSync(join(this.dir, file), { force: true });
        return;
      }
      size = now;
    }
    throw new Error(`no heap snapshot from ${pid} within ${timeoutMs} ms`);
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
